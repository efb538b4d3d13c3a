import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("JSON store: round trips")
struct JSONStoreRoundTripTests {
    /// Items of the every-feature model with every attribute type, awkward values included, an
    /// ordered to-many with inverse, a to-many without inverse, and sub-entities.
    func populateEveryFeature(_ store: any PersistentStore) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let owner = try context.insertObject(entityName: "Owner")
            try owner.setValue(.string("Ada"), forKey: "name")
            var items: [ManagedObject] = []
            for i in 0..<3 {
                let item = try context.insertObject(entityName: "Item")
                try item.setValues([
                    "created": .date(Date(timeIntervalSinceReferenceDate: 1_000.0 * Double(i) + 0.1 + 1e-7)),
                    "code": .string("AB\(i)"), "title": .string("line\nbreak \"\(i)\" ünïcødé 🚀"), "bounded": .integer(Int64(i)),
                    "plainInteger16": .integer(-32_768), "plainInteger32": .integer(Int64(Int32.max)), "plainInteger64": .integer(Int64.min),
                    "plainDecimal": .decimal(Decimal(string: "-0.000000000000000000000000000123")!),
                    "plainDouble": .double(i == 0 ? .infinity : i == 1 ? .nan : 1e-300), "plainFloat": .double(Double(Float(0.1))),
                    "plainString": .string(""), "plainBoolean": .bool(i == 1),
                    "plainDate": .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.999)), "plainBinary": .data(Data([0, 255, 10, 13])),
                    "plainUUID": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
                    "plainURI": .uri(URL(string: "file:///tmp/a%20b?x=1")!),
                    "plainTransformable": .json(.object(["a": .array([.number(1.5), .null, .bool(false)]), "b": .string("c")])),
                ])
                try item.setObject(owner, forKey: "owner")
                let parts = try (0..<2).map { p -> ManagedObject in
                    let part = try context.insertObject(entityName: "Part")
                    try part.setValue(.string("part \(i).\(p)"), forKey: "label")
                    return part
                }
                try item.setObjects(parts.reversed(), forKey: "parts")
                items.append(item)
            }
            try items[0].setObjects([items[2], items[1]], forKey: "related")
            let gadget = try context.insertObject(entityName: "Gadget")
            // Year -29687: beyond the date form, kept as seconds.
            try gadget.setValues(["created": .date(Date(timeIntervalSinceReferenceDate: -1e12 + 0.5)), "watts": .double(Double(Float(7.25)))])
            try context.save()
        }
    }

    @Test("every attribute type and relationship survives a save and a reopen, model read from the folder")
    func reopen() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("every.jsonstore")
        let model = try TestModels.everyFeature()
        let store = try JSONStore(url: url, model: model)
        try populateEveryFeature(store)
        let written = try JSONStoreTesting.contents(of: store)
        #expect(written.count == 11)
        let reopened = try JSONStore(url: url)
        #expect(reopened.identifier == store.identifier)
        #expect(reopened.model.versionHash == model.versionHash)
        #expect(try JSONStoreTesting.contents(of: reopened) == written)
        // Key counters carry on: the next insert does not reuse an ID.
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: reopened))
        let id = try context.performAndWait {
            let owner = try context.insertObject(entityName: "Owner")
            try context.save()
            return owner.objectID
        }
        #expect(id.primaryKey == 2)
    }

    @Test("SQLite → JSON → SQLite gives an equal store: every object, value and relationship, same IDs")
    func sqliteRoundTrip() throws {
        let directory = TemporaryDirectory()
        let model = try TestModels.everyFeature()
        let source = try SQLiteStore(url: directory.file("source.sqlite"), model: model)
        try populateEveryFeature(source)
        let original = try JSONStoreTesting.contents(of: source)
        let json = try JSONStore(url: directory.file("copy.jsonstore"), model: model)
        #expect(try source.copyAllObjects(to: json) == 11)
        #expect(try JSONStoreTesting.contents(of: JSONStore(url: directory.file("copy.jsonstore"))) == original)
        let back = try SQLiteStore(url: directory.file("back.sqlite"), model: model)
        try JSONStore(url: directory.file("copy.jsonstore"), model: model).copyAllObjects(to: back)
        #expect(try JSONStoreTesting.contents(of: back) == original)
    }

    @Test("copying into a store that holds objects, or of another model, is refused and writes nothing")
    func copyRefusals() throws {
        let directory = TemporaryDirectory()
        let model = TestModels.tickers()
        let source = InMemoryStore(model: model)
        try JSONStoreTesting.populateTickers(ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: source)))
        let full = try JSONStore(url: directory.file("full.jsonstore"), model: model)
        try source.copyAllObjects(to: full)
        let before = JSONStoreTesting.fingerprint(directory.file("full.jsonstore"))
        #expect(throws: QuarryError.self) { try source.copyAllObjects(to: full) }
        #expect(JSONStoreTesting.fingerprint(directory.file("full.jsonstore")) == before)
        let other = try JSONStore(url: directory.file("other.jsonstore"), model: try TestModels.everyFeature())
        #expect(throws: StoreError.self) { try source.copyAllObjects(to: other) }
    }
}
