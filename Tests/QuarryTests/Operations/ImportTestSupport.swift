import Foundation
@testable import Quarry
import QuarryTestSupport

/// A store with companies and sectors, and a way to import a file's text into it.
final class ImportFixture: @unchecked Sendable {
    // Immutable after init; contexts confine their own state.
    let directory = TemporaryDirectory()
    let stack: PersistentStack

    static func model() -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Company") { e in
            e.attribute("name", .string, optional: false)
            e.attribute("employees", .integer16)
            e.attribute("revenue", .integer32)
            e.attribute("big", .integer64)
            e.attribute("price", .double)
            e.attribute("ratio", .float)
            e.attribute("exact", .decimal)
            e.attribute("listed", .boolean)
            e.attribute("founded", .date)
            e.attribute("id", .uuid)
            e.attribute("site", .uri)
            e.attribute("logo", .binary)
            e.attribute("extra", .transformable)
            e.attribute("code", .string, regex: "[A-Z]{3}")
            e.attribute("rating", .integer16, min: 0, max: 5)
            e.attribute("scratch", .string, transient: true)
            e.toOne("sector", destination: "Sector", inverse: "companies")
        }
        b.entity("Sector") { e in
            e.attribute("name", .string)
            e.attribute("region", .string)
            e.toMany("companies", destination: "Company", inverse: "sector")
        }
        return try! b.build()
    }

    init() throws {
        stack = try PersistentStack(model: Self.model(), storeURL: directory.file("import.sqlite"))
    }

    /// Writes `text` to `name` in the fixture's folder.
    func write(_ text: String, to name: String) -> URL {
        let url = directory.file(name)
        try! Data(text.utf8).write(to: url)
        return url
    }

    /// Imports `text` (written to `name`) into `entity` and returns the operation's result.
    func importText(_ text: String, name: String = "data.csv", entity: String = "Company",
                    options: ImportOperation.Options = .init(),
                    progress: (@Sendable (ImportProgress) -> Void)? = nil) -> Result<ImportSummary, ImportError> {
        let op = ImportOperation(stack: stack, entityName: entity, fileURL: write(text, to: name), options: options, progress: progress)
        return Result { () throws(ImportError) in try op.run() }
    }

    /// Inserts sectors named `names` (a name twice makes two sectors).
    func addSectors(_ names: [String]) throws {
        let context = stack.importerContext()
        try context.performAndWait {
            for n in names { try context.insertObject(entityName: "Sector").setValue(.string(n), forKey: "name") }
            try context.save()
        }
    }

    /// Every stored object of `entity`, as dictionaries sorted by `sortKey`.
    func rows(_ entity: String = "Company", sortedBy sortKey: String = "name") throws -> [[String: Value]] {
        let context = stack.importerContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: entity)).map { o in
                Dictionary(uniqueKeysWithValues: o.entity.attributes.filter { !$0.isTransient }.map { ($0.name, o[$0.name]) })
            }.sorted { "\($0[sortKey] ?? .null)" < "\($1[sortKey] ?? .null)" }
        }
    }

    /// The number of stored objects of `entity`.
    func count(_ entity: String = "Company") throws -> Int {
        let context = stack.importerContext()
        return try context.performAndWait { try context.count(ofEntity: entity) }
    }

    /// The sector name of each company, by company name.
    func sectorNames() throws -> [String: String] {
        let context = stack.importerContext()
        return try context.performAndWait {
            var out: [String: String] = [:]
            for c in try context.objects(ofEntity: "Company") {
                if case .string(let name) = c["name"], let s = try c.object(forKey: "sector"), case .string(let sn) = s["name"] { out[name] = sn }
            }
            return out
        }
    }
}

extension Result where Success == ImportSummary, Failure == ImportError {
    /// The reported row errors of a validation failure (empty otherwise).
    var rowErrors: [ImportRowError] {
        if case .failure(.invalidRows(_, let errors, _)) = self { return errors }
        return []
    }

    /// The summary of a success.
    var summary: ImportSummary? {
        if case .success(let summary) = self { return summary }
        return nil
    }
}
