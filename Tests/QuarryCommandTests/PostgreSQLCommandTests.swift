import Foundation
@testable import Quarry
import QuarryTestSupport
import Synchronization
import Testing

/// A `postgres://` URL is accepted wherever a store path is: `demo`, `stats`, `history`,
/// `export`, `import`, `model`, `migrate`. Messages never show a password.
@Suite("PostgreSQL store URLs in the commands", .serialized,
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLCommandTests {
    let directory = TemporaryDirectory()

    /// Runs `body` with a store URL in a fresh schema, dropped afterwards.
    func withFreshStore(_ body: (String) async throws -> Void) async throws {
        let url = try #require(PostgreSQLTestServer.freshStoreURL(label: "cmd"))
        defer { try? PostgreSQLStore.destroy(url: try PostgreSQLStoreURL(parsing: url)) }
        try await body(url)
    }

    /// A demo store of `rows` tickers at `url`, seeded by `quarry demo --seed-only`.
    func seedDemo(_ url: String, rows: Int) throws {
        let result = try QuarryExecutable.run(["demo", "--seed-only", "--store", url, "--rows", String(rows)])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("seeded \(rows) tickers into \(try PostgreSQLStoreURL(parsing: url))"))
    }

    /// The number of history transactions `quarry history URL --json` lists.
    func transactionCount(_ url: String) throws -> Int {
        let result = try QuarryExecutable.run(["history", url, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        return try #require(object["transactions"] as? [[String: Any]]).count
    }

    @Test("stats on a URL prints the URL without a password and each entity's count")
    func statsShowsURLAndCounts() async throws {
        try await withFreshStore { url in
            try seedDemo(url, rows: 25)
            let withPassword = url.replacingOccurrences(of: "://", with: "://\(try PostgreSQLStoreURL(parsing: url).user):s3cret-pw@")
            let result = try QuarryExecutable.run(["stats", url])
            #expect(result.status == 0, "\(result.standardError)")
            let shown = try PostgreSQLStoreURL(parsing: url).description
            #expect(result.standardOutput.contains("store: \(shown)"))
            #expect(result.standardOutput.split(separator: "\n").contains { $0.contains("Ticker") && $0.hasSuffix(" 25") }, "\(result.standardOutput)")
            #expect(!result.standardOutput.contains("files:"))
            // A wrong password in the URL: the error names the store, never the password.
            let refused = try QuarryExecutable.run(["stats", withPassword])
            #expect(!(refused.standardOutput + refused.standardError).contains("s3cret-pw"))
            // Connection failures say what failed, not the driver's text (issue 34, item 18).
            #expect(refused.standardError.contains("authentication failed for user"), "\(refused.standardError)")
            let parsed = try PostgreSQLStoreURL(parsing: url)
            let missingDatabase = url.replacingOccurrences(of: "/\(parsed.database)?", with: "/no_such_database_q34?")
            let noDatabase = try QuarryExecutable.run(["stats", missingDatabase])
            #expect(noDatabase.standardError.contains("the database 'no_such_database_q34' does not exist"), "\(noDatabase.standardError)")
            let closedPort = url.replacingOccurrences(of: ":\(parsed.port)/", with: ":1/")
            let nothingListens = try QuarryExecutable.run(["stats", closedPort])
            #expect(nothingListens.standardError.contains("connection refused by \(parsed.host):1"), "\(nothingListens.standardError)")
            #expect(!nothingListens.standardError.contains("SingleConnectionFailure"))
        }
    }

    @Test("history lists and prunes, export reads a PostgreSQL store; import creates one with --model and adds to it")
    func historyExportImport() async throws {
        try await withFreshStore { url in
            let model = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
            let csv = try QuarryExecutable.write("name,employees\nAcme,120\nBolt,8\nCog,45\n", to: directory.file("c.csv"))
            let missing = try QuarryExecutable.run(["import", url, csv.path, "--entity", "Company"])
            #expect(missing.status != 0 && missing.standardError.contains("no such store (give --model to create it)"))
            let created = try QuarryExecutable.run(["import", url, csv.path, "--entity", "Company", "--model", model.path])
            #expect(created.status == 0, "\(created.standardError)")
            #expect(created.standardOutput.contains("imported 3 Company objects"))
            let more = try QuarryExecutable.write("name,employees\nDyno,3\n", to: directory.file("d.csv"))
            #expect(try QuarryExecutable.run(["import", url, more.path, "--entity", "Company"]).status == 0)

            let history = try QuarryExecutable.run(["history", url])
            #expect(history.status == 0, "\(history.standardError)")
            let lines = history.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines[0].contains("+3 ~0 -0") && lines[1].contains("+1 ~0 -0"), "\(lines)")

            let token = try #require(lines.last?.split(separator: " ").first.map(String.init))
            let pruned = try QuarryExecutable.run(["history", url, "--prune-before", token])
            #expect(pruned.status == 0 && pruned.standardOutput.contains("pruned 1 transaction before \(token)"), "\(pruned.standardError)")
            #expect(try transactionCount(url) == 1)

            let export = try QuarryExecutable.run(["export", url, "--entity", "Company", "--sort", "name", "--columns", "name,employees"])
            #expect(export.status == 0, "\(export.standardError)")
            #expect(export.standardOutput == "name,employees\r\nAcme,120\r\nBolt,8\r\nCog,45\r\nDyno,3\r\n"
                    || export.standardOutput == "name,employees\nAcme,120\nBolt,8\nCog,45\nDyno,3\n", "\(export.standardOutput)")

            let described = try QuarryExecutable.run(["model", url])
            #expect(described.status == 0 && described.standardOutput.contains("Company"), "\(described.standardError)")
        }
    }

    @Test("demo --import-only on a URL seeds the store and keeps saving to it until stopped")
    func demoImportOnly() async throws {
        try await withFreshStore { url in
            try seedDemo(url, rows: 10)
            let before = try transactionCount(url)
            // Every save NOTIFYs the store's channel: the importer's first save is awaited there.
            let storeURL = try PostgreSQLStoreURL(parsing: url)
            let store = try PostgreSQLStore(url: storeURL, model: nil, options: .init(readOnly: true))
            let (saves, continuation) = AsyncStream<Void>.makeStream()
            let runs = Mutex(0)
            let listener = try PostgreSQLListener(url: storeURL, channel: store.notificationChannel) {
                // The first run is the listener's catch-up on start, not a notification.
                if runs.withLock({ $0 += 1; return $0 }) > 1 { continuation.yield() }
            }
            defer { listener.cancel() }
            let process = Process()
            process.executableURL = TmuxHarness.builtExecutable(named: "quarry")
            process.arguments = ["demo", "--import-only", "--store", url, "--rate", "400"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = try await nextElement(of: saves, awaiting: "a save of the importer (a notification on the store's channel)")
            process.terminate()
            process.waitUntilExit()
            #expect(try transactionCount(url) > before, "the importer's saves were recorded")
        }
    }

    @Test("create on a URL makes an empty store in its schema, and refuses a schema that holds one")
    func createMakesAnEmptyStore() async throws {
        try await withFreshStore { url in
            let model = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
            let created = try QuarryExecutable.run(["create", url, "--model", model.path])
            #expect(created.status == 0, "\(created.standardError)")
            #expect(created.standardOutput.contains("created \(try PostgreSQLStoreURL(parsing: url)): 2 entities (Company, Sector)"), "\(created.standardOutput)")
            let stats = try QuarryExecutable.run(["stats", url])
            #expect(stats.standardOutput.split(separator: "\n").contains { $0.contains("Company") && $0.hasSuffix(" 0") }, "\(stats.standardOutput)")
            let again = try QuarryExecutable.run(["create", url, "--model", model.path])
            #expect(again.status != 0 && again.standardError.contains("a store is there already"), "\(again.standardError)")
        }
    }

    @Test("browse opens a store named by its URL, titled with the URL (no password)",
          .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func browseOpensAURL() async throws {
        try await withFreshStore { url in
            try seedDemo(url, rows: 5)
            let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
            let tmux = TmuxHarness(width: 120, height: 20)
            defer { tmux.shutDown() }
            try tmux.start("\(executable.path) browse '\(url)' --entity Ticker")
            let shown = try PostgreSQLStoreURL(parsing: url).description
            let title = try await tmux.waitForRow { $0.contains("\(shown) · Ticker") }
            #expect(title != nil, "\((try? tmux.screen()) ?? [])")
            try tmux.send("q")
            #expect(try await tmux.waitForSessionEnd())
        }
    }

    @Test("browse never creates a store on a URL without --model, nor with --read-only")
    func browseRefusesToCreateWithoutAModel() async throws {
        try await withFreshStore { url in
            let bare = try QuarryExecutable.run(["browse", url])
            #expect(bare.status == 64 && bare.standardError.contains("no Quarry store there (give --model to create a new one)"), "\(bare.standardError)")
            let model = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
            let readOnly = try QuarryExecutable.run(["browse", url, "--model", model.path, "--read-only"])
            #expect(readOnly.status == 64 && readOnly.standardError.contains("--read-only never creates a store"), "\(readOnly.standardError)")
            #expect(try !PostgreSQLStore.storeExists(url: try PostgreSQLStoreURL(parsing: url)))
        }
    }

    @Test("migrate on a schema without a store says so and creates nothing, and a malformed URL is named without its password")
    func migrateWithoutAStoreAndBadURLsAreNamed() throws {
        let url = try #require(PostgreSQLTestServer.freshStoreURL(label: "cmd"))
        defer { try? PostgreSQLStore.destroy(url: try PostgreSQLStoreURL(parsing: url)) }
        let model = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
        let migrate = try QuarryExecutable.run(["migrate", url, "--model", model.path, "--yes"])
        let shown = try PostgreSQLStoreURL(parsing: url).description
        #expect(migrate.status != 0 && migrate.standardError.contains(shown), "\(migrate.standardError)")
        #expect(try !PostgreSQLStore.storeExists(url: try PostgreSQLStoreURL(parsing: url)))
        let bad = try QuarryExecutable.run(["stats", "postgres://someone:hunter22@127.0.0.1:1/"])
        #expect(bad.status != 0 && bad.standardError.contains("postgres://someone:***@127.0.0.1:1/"), "\(bad.standardError)")
        #expect(!bad.standardError.contains("hunter22"))
    }
}
