import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry migrate postgres://…?schema=… --model MODEL [--dry-run] [--yes]`, end to end: the
/// plan, a dry run that changes nothing, the question, the migration; the URL is only ever
/// shown without its password.
@Suite("quarry migrate on a PostgreSQL store", .serialized,
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLMigrateCommandTests {
    let directory = TemporaryDirectory()

    /// A store at a fresh URL made with ``MigrateCommandTests/v1`` holding items `a` (count 3)
    /// and `b` (no count), and the v2 model file; the schema is dropped after `body`.
    func withStore(_ body: (String, URL) throws -> Void) throws {
        let url = try #require(PostgreSQLTestServer.freshStoreURL(label: "cmdmig"))
        let parsed = try PostgreSQLStoreURL(parsing: url)
        defer { try? PostgreSQLStore.destroy(url: parsed) }
        let v1 = try ManagedObjectModel(ModelDefinition(jsonText: MigrateCommandTests.v1, path: "v1.json"))
        let store = try PostgreSQLStore(url: parsed, model: v1)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "seed"))
        try context.performAndWait {
            try context.insertObject(entityName: "Item").setValues(["name": .string("a"), "count": .integer(3)])
            try context.insertObject(entityName: "Item").setValues(["name": .string("b")])
            try context.save()
        }
        store.close()
        try body(url, try QuarryExecutable.write(MigrateCommandTests.v2, to: directory.file("v2.json")))
    }

    /// `title:count` of every item, by title, read with the v2 model.
    func items(_ url: String) throws -> [String] {
        let v2 = try ManagedObjectModel(ModelDefinition(jsonText: MigrateCommandTests.v2, path: "v2.json"))
        let store = try PostgreSQLStore(url: try PostgreSQLStoreURL(parsing: url), model: v2)
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "read"))
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("title")])).map { item in
                guard case .string(let title) = try item.value(forKey: "title"), case .integer(let count) = try item.value(forKey: "count") else {
                    return "unexpected values: \(item)"
                }
                return "\(title):\(count)"
            }
        }
    }

    /// The test server's password: the last field of the password file's first line.
    func serverPassword() throws -> String {
        let file = try #require(ProcessInfo.processInfo.environment["PGPASSFILE"], "PGPASSFILE names the test server's password file")
        let line = try #require(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").first)
        return try #require(line.split(separator: ":").last.map(String.init))
    }

    @Test func dryRunAndNoChangeNothingAndYesMigratesShowingTheURLWithoutItsPassword() throws {
        try withStore { url, model in
            let shown = try PostgreSQLStoreURL(parsing: url).description
            let dry = try QuarryExecutable.run(["migrate", url, "--model", model.path, "--dry-run"])
            #expect(dry.status == 0, "\(dry.standardError)")
            #expect(dry.standardOutput.contains("migrate \(shown):"), "\(dry.standardOutput)")
            #expect(dry.standardOutput.contains("Item: in place, 2 rows affected"))
            #expect(dry.standardOutput.contains("title: renamed from name"))
            #expect(dry.standardOutput.contains("dry run: nothing was changed"))
            let declined = try QuarryExecutable.run(["migrate", url, "--model", model.path], input: "n\n")
            #expect(declined.status == 1 && declined.standardError.contains("not migrated; \(shown) is unchanged"), "\(declined.standardError)")
            // Both left the store with its old model.
            #expect(throws: StoreError.self) { _ = try items(url) }

            // The server's password written in the URL is used but never shown.
            let user = try PostgreSQLStoreURL(parsing: url).user
            let password = try serverPassword()
            let withPassword = url.replacingOccurrences(of: "://\(user)@", with: "://\(user):\(password.addingPercentEncoding(withAllowedCharacters: .urlPasswordAllowed) ?? password)@")
            #expect(withPassword != url)
            let migrated = try QuarryExecutable.run(["migrate", withPassword, "--model", model.path], input: "y\n")
            #expect(migrated.status == 0, "\(migrated.standardError)")
            #expect(migrated.standardOutput.contains("migrated \(shown)"), "\(migrated.standardOutput)")
            #expect(!(migrated.standardOutput + migrated.standardError).contains(password))
            #expect(try items(url) == ["a:3", "b:0"])
            let again = try QuarryExecutable.run(["migrate", url, "--model", model.path, "--yes"])
            #expect(again.status == 0 && again.standardOutput.contains("\(shown): already has this model"), "\(again.standardOutput)")
        }
    }
}
