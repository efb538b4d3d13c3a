import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `browse`, `stats`, `model` and `export` read a PostgreSQL schema Quarry did not make, with
/// the model read from its catalog; every command that would write it refuses, naming it.
@Suite("PostgreSQL schemas Quarry did not make, in the commands", .serialized,
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct ForeignPostgreSQLCommandTests {
    let directory = TemporaryDirectory()

    /// Runs `body` with the URL (as given to `quarry`) of a fresh schema holding
    /// ``ForeignShopSchema``, dropped afterwards.
    func withShop(rows: Int = 300, _ body: (String) async throws -> Void) async throws {
        let argument = try #require(PostgreSQLTestServer.freshStoreURL(label: "shopcmd"))
        let url = try PostgreSQLStoreURL(parsing: argument)
        let admin = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer {
            // Clean-up of the scratch schema: a failure leaves it on the throwaway server only.
            for sql in ForeignShopSchema.dropStatements(schema: url.schema) { _ = try? admin.withConnection { try $0.execute(sql) } }
            admin.close()
        }
        try ForeignShopSchema.create(schema: url.schema, rows: rows) { sql in _ = try admin.withConnection { try $0.execute(sql) } }
        try await body(argument)
    }

    @Test("model, stats and export read the schema; its warnings and kind are named")
    func modelStatsExport() async throws {
        try await withShop { url in
            let shown = try PostgreSQLStoreURL(parsing: url).description
            let model = try QuarryExecutable.run(["model", url])
            #expect(model.status == 0, "\(model.standardError)")
            #expect(model.standardOutput.contains("model: \(shown) (PostgreSQL schema Quarry did not make, read-only; model from the schema's catalog)"))
            #expect(model.standardOutput.contains("sector  -> sector  to-one"), "\(model.standardOutput)")
            let stats = try QuarryExecutable.run(["stats", url])
            #expect(stats.status == 0, "\(stats.standardError)")
            #expect(stats.standardOutput.contains("kind: PostgreSQL schema Quarry did not make, read-only"))
            #expect(stats.standardOutput.contains("company        300"), "\(stats.standardOutput)")
            let export = try QuarryExecutable.run(["export", url, "--entity", "company", "--where", "price >= 2.99",
                                                   "--sort", "-price", "--columns", "id,name,price,listed,sector.name"])
            #expect(export.status == 0, "\(export.standardError)")
            #expect(export.standardOutput.components(separatedBy: "\r\n").prefix(3) == [
                "id,name,price,listed,sector.name", "300,Company 300,3.00,2000-10-27,sector 1", "299,Company 299,2.99,2000-10-26,sector 12",
            ])
        }
    }

    @Test("what would write the schema refuses, naming it: browse --write or --model, import, history")
    func writersRefuse() async throws {
        try await withShop(rows: 5) { url in
            let shown = try PostgreSQLStoreURL(parsing: url).description
            let write = try QuarryExecutable.run(["browse", url, "--write"])
            #expect(write.status == 64 && write.standardError.contains("\(shown): a PostgreSQL schema Quarry did not make is opened read-only"),
                    "\(write.standardError)")
            let modelFile = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
            let withModel = try QuarryExecutable.run(["browse", url, "--model", modelFile.path])
            #expect(withModel.status == 64 && withModel.standardError.contains("its model is read from its catalog"), "\(withModel.standardError)")
            let csv = directory.file("rows.csv")
            try Data("name\nx\n".utf8).write(to: csv)
            let imported = try QuarryExecutable.run(["import", url, "--model", modelFile.path, "--entity", "Company", csv.path])
            #expect(imported.status != 0 && imported.standardError.contains("not a Quarry store"), "\(imported.standardError)")
            let history = try QuarryExecutable.run(["history", url])
            #expect(history.status != 0 && history.standardError.contains("\(shown): a PostgreSQL schema Quarry did not make records no Quarry history"), "\(history.standardError)")
            #expect(try PostgreSQLStore.schemaKind(url: PostgreSQLStoreURL(parsing: url)) == .foreign)
        }
    }

    @Test("browse shows the largest table read-only, titled with the URL, and quits", .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func browseShowsTheLargestTable() async throws {
        try await withShop { url in
            let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
            let tmux = TmuxHarness(width: 140, height: 20)
            defer { tmux.shutDown() }
            try tmux.start("\(executable.path) browse '\(url)'")
            let shown = try PostgreSQLStoreURL(parsing: url).description
            let title = try await tmux.waitForRow { $0.contains("\(shown) · company · sort name") }
            #expect(title != nil, "\((try? tmux.screen()) ?? [])")
            let status = try await tmux.waitForRow { $0.contains("row 1/300") && $0.contains("read-only PostgreSQL schema Quarry did not make") }
            #expect(status != nil, "\((try? tmux.screen()) ?? [])")
            #expect(try tmux.screen().contains { $0.hasPrefix("Company 1 ") && $0.contains("0.01") && $0.contains("2000-01-02") })
            // Another session's UPDATE shows on screen, followed through logical replication.
            let parsed = try PostgreSQLStoreURL(parsing: url)
            let admin = try PostgreSQLConnectionPool(url: parsed, maximumConnections: 1)
            defer { admin.close() }
            _ = try admin.withConnection { try $0.execute("UPDATE \(sqlIdentifier(parsed.schema)).company SET price = 4242.42 WHERE id = 1") }
            let updated = try await tmux.waitForRow { $0.hasPrefix("Company 1 ") && $0.contains("4242.42") }
            #expect(updated != nil, "\((try? tmux.screen()) ?? [])")
            try tmux.send("q")
            #expect(try await tmux.waitForSessionEnd())
        }
    }
}
