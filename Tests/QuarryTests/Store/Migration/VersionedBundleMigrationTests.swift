import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Stores written with any version of an `.xcdatamodeld` bundle open with its current version.
@Suite struct VersionedBundleMigrationTests {
    let fixture = MigrationFixture()

    /// Three versions of one entity whose attribute is renamed twice: `title` (v1), `heading`
    /// renamed from `title` (v2), `caption` renamed from `heading` (v3). v1 → v3 directly finds no
    /// match for `caption`, so only the steps keep the values.
    private func bundle() throws -> URL {
        let url = fixture.dir.file("Notes.xcdatamodeld")
        let versions = [("Notes", "title", nil), ("Notes 2", "heading", "title"), ("Notes 3", "caption", "heading")]
        for (name, attribute, renamed) in versions {
            var builder = ModelBuilder()
            builder.entity("Note") { entity in
                entity.attribute(attribute, .string, renamedFrom: renamed)
                entity.attribute("stars", .integer16)
            }
            let folder = url.appendingPathComponent(name + ".xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try builder.definition.xcodeContentsXML().write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Notes 3.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: url.appendingPathComponent(".xccurrentversion"))
        return url
    }

    @Test func versionsLoadOldestFirstWithTheCurrentOne() throws {
        let history = try ModelVersionHistory.load(xcodeBundleAt: try bundle())
        #expect(history.versions.map(\.name) == ["Notes", "Notes 2", "Notes 3"])
        #expect(history.currentIndex == 2)
        #expect(history.current.entity(named: "Note")?.attribute("caption")?.renamingIdentifier == "heading")
        #expect(ModelVersionHistory.isOlder("Model 2", than: "Model 10") && ModelVersionHistory.isOlder("Model", than: "Model 2"))
    }

    @Test func aStoreOfTheFirstVersionMigratesStepByStepKeepingItsValues() throws {
        let history = try ModelVersionHistory.load(xcodeBundleAt: try bundle())
        try fixture.create(history.versions[0].model) { context in
            try context.make("Note", ["title": .string("hello"), "stars": .integer(3)])
        }
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: history.current, versions: history))
        #expect(plan.steps.map(\.sourceVersion) == ["Notes", "Notes 2"])
        #expect(plan.steps.map(\.destinationVersion) == ["Notes 2", "Notes 3"])
        // Without the history the direct mapping would drop the values: the plan says so.
        let direct = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: history.current))
        #expect(direct.steps.count == 1 && direct.description.contains("- title"))

        var options = PersistentStack.Options()
        options.storeURL = fixture.url
        options.modelVersions = history
        _ = try PersistentStack(model: history.current, options: options)
        #expect(try fixture.rows(history.current, "Note", ["caption", "stars"]) == [["caption": "hello", "stars": "3"]])
    }

    @Test func aStoreOfTheMiddleVersionTakesOneStep() throws {
        let history = try ModelVersionHistory.load(xcodeBundleAt: try bundle())
        try fixture.create(history.versions[1].model) { context in try context.make("Note", ["heading": .string("hi")]) }
        let plan = try #require(try SQLiteStore.migrate(url: fixture.url, to: history.current, versions: history))
        #expect(plan.steps.count == 1 && plan.steps[0].sourceVersion == "Notes 2")
        #expect(try fixture.rows(history.current, "Note", ["caption"]) == [["caption": "hi"]])
    }

    /// Every older version of every multi-version bundle in the corpus: a store of it, with rows
    /// in every concrete entity, migrates to the current version with those rows kept. (The
    /// bundles beside Core Data stores include one type change no inferred mapping can make,
    /// XCServerCoreData's `Integration.endedTime` String → Date: that one must be refused by name.)
    @Test func everyCorpusBundleMigratesOlderStoresToItsCurrentVersion() throws {
        let bundles = ModelCorpus.versionedBundles()
        guard !bundles.isEmpty else {
            print("skipped: corpus not present (../shared/corpus)")
            return
        }
        for bundle in bundles {
            let history = try ModelVersionHistory.load(xcodeBundleAt: bundle)
            for (i, version) in history.versions.enumerated() where i != history.currentIndex {
                let url = fixture.dir.file("\(bundle.deletingPathExtension().lastPathComponent)-\(i).sqlite")
                _ = try SQLiteStore(url: url, model: version.model)
                let seeded = try Self.seed(url, model: version.model)
                do {
                    try SQLiteStore.migrate(url: url, to: history.current, versions: history)
                } catch let error as MigrationError {
                    guard case .incompatibleType(_, "Integration", "endedTime", .string, .date) = error,
                          bundle.lastPathComponent == "XCServerCoreData.xcdatamodeld" else { throw error }
                    continue
                }
                let store = try SQLiteStore(url: url, model: history.current)
                let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "check"))
                for (entity, rows) in seeded {
                    // An entity the current version still has (under its name or a renaming) keeps its rows.
                    let mapping = ModelMapping(source: version.model, destination: history.current)
                    guard let old = version.model.entity(named: entity),
                          let new = mapping.entityDestination[old.index].map({ history.current.entities[$0] }) else { continue }
                    let found = try context.performAndWait {
                        try context.fetch(FetchRequest(entityName: new.name)).filter { $0.entity == new }
                    }
                    #expect(found.count == rows, "\(bundle.lastPathComponent) \(version.name) → current: \(entity)")
                    for object in found {
                        for attribute in new.attributes where !attribute.isTransient { _ = try context.performAndWait { try object.value(forKey: attribute.name) } }
                    }
                }
            }
        }
    }

    /// Writes three rows into every concrete entity with a value for every stored attribute
    /// (unique per row), straight through SQL; returns the rows per entity name.
    static func seed(_ url: URL, model: ManagedObjectModel) throws -> [String: Int] {
        let layout = StoreLayout(model: model)
        var seeded: [String: Int] = [:]
        try DatabaseQueue(path: url.path).write { db in
            var nextKey: [Int: Int64] = [:]
            for entity in model.entities where !entity.isAbstract {
                let entityLayout = layout.entities[entity.index]
                let table = layout.tables[entityLayout.tableIndex]
                for _ in 0..<3 {
                    let key = (nextKey[entityLayout.tableIndex] ?? 0) + 1
                    nextKey[entityLayout.tableIndex] = key
                    var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                    var values: [DatabaseValueConvertible?] = [key, entity.index, 1]
                    for (a, attribute) in entity.attributes.enumerated() {
                        guard let column = entityLayout.attributeColumns[a] else { continue }
                        columns.append(sqlIdentifier(table.columns[column].name))
                        values.append(value(attribute.type, key))
                    }
                    let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                    try db.execute(sql: "INSERT INTO \(sqlIdentifier(table.name)) (\(columns.joined(separator: ", "))) VALUES (\(marks))",
                                   arguments: StatementArguments(values))
                }
                seeded[entity.name] = 3
            }
            for (t, max) in nextKey {
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ROOT = ?", arguments: [max, layout.tables[t].name])
            }
        }
        return seeded
    }

    private static func value(_ type: AttributeType, _ key: Int64) -> DatabaseValueConvertible {
        switch type {
        case .integer16, .integer32, .integer64: return key
        case .boolean: return key % 2
        case .double, .float: return Double(key) + 0.5
        case .decimal: return "\(key).25"
        case .string: return "s\(key)"
        case .date: return Double(key) * 86_400
        case .binary: return Data([UInt8(key)])
        case .uuid: return UUID().uuidString
        case .uri: return "https://example.com/\(key)"
        case .transformable: return "\"t\(key)\""
        case .undefined: return "\"u\(key)\""
        }
    }
}
