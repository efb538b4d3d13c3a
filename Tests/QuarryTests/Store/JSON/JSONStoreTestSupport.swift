import Foundation
@testable import Quarry
import QuarryTestSupport

/// Helpers shared by the JSON store tests.
enum JSONStoreTesting {
    /// The names of the files in `folder`, sorted.
    static func fileNames(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Every file of `folder` (recursively) with the SHA-256 of its bytes: a fingerprint that
    /// changes when anything in the folder is written.
    static func fingerprint(_ folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            result[name] = isDirectory.boolValue ? "folder" : SHA256.hex(Array((try? Data(contentsOf: url)) ?? Data()))
        }
        return result
    }

    /// The text of file `name` in `folder`.
    static func text(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Everything `store` holds, comparable across stores of the same model: per object (by
    /// entity name and ID) its attribute values, to-ones and to-many contents in stored order.
    static func contents(of store: any PersistentStore) throws -> [String: String] {
        var result: [String: String] = [:]
        let model = store.model
        func name(_ id: ObjectID) -> String { "\(model.entities[Int(id.entityIndex)].name).\(id.primaryKey)" }
        for entity in model.entities where !entity.isAbstract {
            let ids = try store.objectIDs(for: StoreQuery(entity: entity, includesSubentities: false))
            let snapshots = try store.snapshots(for: ids)
            for id in ids {
                let s = try require(snapshots[id])
                var parts = entity.attributes.indices.map { "\(entity.attributes[$0].name)=\(s.values[$0])" }
                for (r, relationship) in entity.relationships.enumerated() {
                    let related = relationship.isToMany ? try store.relatedIDs(of: id, relationship: r) : s.toOne[r].map { [$0] } ?? []
                    parts.append("\(relationship.name)=[\(related.map(name).joined(separator: ","))]")
                }
                result[name(id)] = parts.joined(separator: " ")
            }
        }
        return result
    }
}

/// A `#require` that works outside the Testing macros' reach (in helpers that throw).
private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw QuarryError.invalidValue("missing value") }
    return value
}

extension JSONStoreTesting {
    /// Fills `context` with the ticker model's objects: a sector with two tickers (one with a
    /// fraction-of-a-second date), a tag on both, a quote, a person with a portfolio holding the
    /// tickers in a chosen order, and a stock (sub-entity) with a decimal value.
    static func populateTickers(_ context: ObjectContext) throws {
        try context.performAndWait {
            let tech = try context.insert(Sector.self); tech.name = "Tech"
            let acme = try context.insert(Ticker.self)
            acme.symbol = "ACME"; acme.name = "Acme \"Rockets\""; acme.price = 12.5; acme.volume = 100
            acme.listed = Date(timeIntervalSinceReferenceDate: 736_257_600.25)
            acme.sector = tech
            let bolt = try context.insert(Ticker.self)
            bolt.symbol = "BOLT"; bolt.price = 3; bolt.active = false; bolt.sector = tech
            let tag = try context.insert(TickerTag.self); tag.label = "fast"
            tag.tickers = [acme, bolt]
            let quote = try context.insert(Quote.self)
            quote.price = 12.75; quote.time = Date(timeIntervalSinceReferenceDate: 0); quote.ticker = acme
            let ada = try context.insert(Person.self); ada.name = "Ada"
            let portfolio = try context.insert(Portfolio.self); portfolio.title = "Main"; portfolio.owner = ada
            portfolio.holdings = [bolt, acme]
            let stock = try context.insertObject(entityName: "Stock")
            try stock.setValues(["code": .string("ACM"), "value": .decimal(Decimal(string: "1234.5678901234567890")!), "exchange": .string("XNYS")])
            try context.save()
        }
    }
}
