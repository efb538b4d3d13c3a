import Foundation
import GRDB
import Quarry
import QuarryTestSupport
import Testing

/// `quarry migrate STORE --model MODEL [--dry-run] [--yes]`, end to end.
struct MigrateCommandTests {
    let directory = TemporaryDirectory()

    static let v1 = #"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"}]}]}"#
    static let v2 = """
        {"entities": [{"name": "Item", "attributes": [{"name": "title", "renamingIdentifier": "name", "type": "String"},
          {"name": "count", "type": "Integer 32", "optional": false, "default": 0}, {"name": "note", "type": "String"}]}]}
        """

    /// A store made with v1 holding two items (one without a count), and the v2 model file.
    private func setUp() throws -> (store: URL, model: URL) {
        let store = directory.file("items.sqlite")
        let v1 = try QuarryExecutable.write(Self.v1, to: directory.file("v1.json"))
        #expect(try QuarryExecutable.run(["create", store.path, "--model", v1.path]).status == 0)
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "INSERT INTO Item (Z_PK, Z_ENT, Z_OPT, name, count) VALUES (1, 0, 1, 'a', 3), (2, 0, 1, 'b', NULL)")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2")
        }
        return (store, try QuarryExecutable.write(Self.v2, to: directory.file("v2.json")))
    }

    private func items(_ store: URL) throws -> [String] {
        try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT title, count FROM Item ORDER BY Z_PK").map { "\($0[0] as String):\($0[1] as Int)" }
        }
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() throws {
        let (store, model) = try setUp()
        let before = try Data(contentsOf: store)
        let result = try QuarryExecutable.run(["migrate", store.path, "--model", model.path, "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Item: in place, 2 rows affected"))
        #expect(result.standardOutput.contains("title: renamed from name"))
        #expect(result.standardOutput.contains("count: optional → required (default 0)"))
        #expect(result.standardOutput.contains("+ note: String, optional"))
        #expect(result.standardOutput.contains("dry run: nothing was changed"))
        #expect(try Data(contentsOf: store) == before)
        #expect(try SQLiteStore.readMetadata(url: store).model.entity(named: "Item")?.attribute("name") != nil)
    }

    @Test func yesMigratesAtOnceAndKeepsTheRows() throws {
        let (store, model) = try setUp()
        let result = try QuarryExecutable.run(["migrate", store.path, "--model", model.path, "--yes"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("migrated \(store.path)"))
        #expect(try items(store) == ["a:3", "b:0"])
        let again = try QuarryExecutable.run(["migrate", store.path, "--model", model.path, "--yes"])
        #expect(again.standardOutput.contains("already has this model"))
    }

    @Test func withoutYesItAsksAndOnlyYesMigrates() throws {
        let (store, model) = try setUp()
        let declined = try QuarryExecutable.run(["migrate", store.path, "--model", model.path], input: "n\n")
        #expect(declined.status == 1)
        #expect(declined.standardError.contains("Migrate \(store.path)? [y/N]"))
        #expect(declined.standardError.contains("not migrated"))
        #expect(try SQLiteStore.readMetadata(url: store).model.entity(named: "Item")?.attribute("name") != nil)
        let agreed = try QuarryExecutable.run(["migrate", store.path, "--model", model.path], input: "y\n")
        #expect(agreed.status == 0, "\(agreed.standardError)")
        #expect(try items(store) == ["a:3", "b:0"])
    }

    @Test func aRefusedMigrationNamesTheAttributeAndRows() throws {
        let (store, _) = try setUp()
        let strict = try QuarryExecutable.write(Self.v1.replacingOccurrences(of: "\"Integer 16\"}", with: "\"Integer 16\", \"optional\": false}"),
                                                to: directory.file("strict.json"))
        let result = try QuarryExecutable.run(["migrate", store.path, "--model", strict.path, "--yes"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("cannot migrate Item.count"))
        #expect(result.standardError.contains("1 row of Item have no value"))
    }

    @Test func browseWithANewerModelRefusesToMigrateReadOnly() throws {
        let (store, model) = try setUp()
        let result = try QuarryExecutable.run(["browse", store.path, "--model", model.path, "--read-only"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("needs a migration but was opened read-only"))
        #expect(result.standardError.contains("title: renamed from name"))
        #expect(try SQLiteStore.readMetadata(url: store).model.entity(named: "Item")?.attribute("name") != nil)
    }

    @Test func browseWithANewerModelShowsThePlanAndMigratesOnlyWhenTheUserAgrees() throws {
        let (store, model) = try setUp()
        let declined = try QuarryExecutable.run(["browse", store.path, "--model", model.path], input: "\n")
        #expect(declined.status == 1)
        #expect(declined.standardError.contains("Item: in place, 2 rows affected"))
        #expect(declined.standardError.contains("Migrate it? [y/N]"))
        #expect(try SQLiteStore.readMetadata(url: store).model.entity(named: "Item")?.attribute("name") != nil)
    }
}
