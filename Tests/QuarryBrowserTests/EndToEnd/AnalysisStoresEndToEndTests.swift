import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// Issue 41's analysis views beyond Quarry's own SQLite stores, in a real terminal: on a
/// foreign SQLite file (read-only) the frequency view counts a column and a declared foreign
/// key's key path, the summary line adds up, a selection exports and a delete is refused; on a
/// PostgreSQL store the frequency view, the summary, a selection's `:set` (and `u`) and
/// `:since` all work.
@Suite("End to end in tmux: frequency, summary, selection and since on foreign SQLite and PostgreSQL", .serialized,
       .enabled(if: TmuxHarness.isAvailable && (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0, "tmux or sqlite3 is not installed"))
struct AnalysisStoresEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("a foreign SQLite file: :freq category and :freq maker.name count as GROUP BY does; Enter filters; % sums; v and x export; d is refused")
    func foreignSQLite() async throws {
        let shop = directory.file("shop.db").path
        let made = try TmuxHarness.run(["sqlite3", shop, """
            CREATE TABLE makers (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL, maker_id INTEGER REFERENCES makers(id));
            INSERT INTO makers VALUES (1, 'Acme'), (2, 'Globex');
            INSERT INTO items VALUES (1, 'pen', 'office', 1.5, 1), (2, 'pad', 'office', 2.0, 1), (3, 'mug', 'kitchen', 4.0, 2),
                                     (4, 'cup', 'kitchen', 3.0, 2), (5, 'tape', 'office', 1.0, 2), (6, 'odd', NULL, 0.5, NULL);
            """])
        #expect(made.status == 0, "\(made.output)")
        let before = try Data(contentsOf: URL(fileURLWithPath: shop))
        let tmux = TmuxHarness(width: 120, height: 24)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(shop) --entity items --sort name", statusLine: false)
        _ = try await e2e.waitFor(tmux, text: "row 1/6")

        try tmux.send(":")
        try e2e.type(tmux, "freq category")
        var screen = try await e2e.waitFor(tmux, "the frequency of category") { $0.contains { $0.contains("category: value 1/3") && $0.contains("live, ") } }
        var rows = FrequencyEndToEndTests.frequencies(screen)
        #expect(rows.first?.value.hasPrefix("office") == true && rows.first?.count == 3, "\(rows)")
        #expect(rows.map(\.count).reduce(0, +) == 6)
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, text: "row 1/3")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, text: "category: value 1/3")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, text: "row 1/6")

        try tmux.send(":")
        try e2e.type(tmux, "freq maker.name")
        screen = try await e2e.waitFor(tmux, "the frequency of maker.name") { $0.contains { $0.contains("maker.name: value 1/3") && $0.contains("live, ") } }
        rows = FrequencyEndToEndTests.frequencies(screen)
        let counts = Dictionary(rows.map { ($0.value.trimmingCharacters(in: .whitespaces), $0.count) }, uniquingKeysWith: +)
        #expect(counts["Globex"] == 3 && counts["Acme"] == 2, "\(rows)")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, text: "row 1/6")

        try tmux.send("%")
        _ = try await e2e.waitFor(tmux, "the summary line") { s in s.contains { $0.contains("n=6") && $0.contains("sum=12") } }
        try tmux.send("%")

        try e2e.type(tmux, "2v", enter: false)
        _ = try await e2e.waitFor(tmux, text: "2 selected")
        try tmux.send("d")
        _ = try await e2e.waitFor(tmux, text: "read-only")
        let picked = try await e2e.exportSelection(tmux, suggested: "items-selected.csv", to: directory.file("picked.csv").path, rows: 2)
        #expect(picked.count == 3, "the header and the two rows: \(picked)")
        try tmux.send(":")
        try e2e.type(tmux, "since 10m")
        _ = try await e2e.waitFor(tmux, text: "records no persistent history")
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        #expect(try Data(contentsOf: URL(fileURLWithPath: shop)) == before, "a foreign file is never written")
    }

    @Test("a PostgreSQL store: :freq sector.name sums to the total, % counts, 2v :set price writes both and u takes it back, :since lists the seed",
          .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
    func postgreSQL() async throws {
        let url = try #require(PostgreSQLTestServer.freshStoreURL(label: "analysis"))
        defer { try? PostgreSQLStore.destroy(url: PostgreSQLStoreURL(parsing: url)) }
        try e2e.seed(url, rows: 300)
        let tmux = TmuxHarness(width: 140, height: 30)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse '\(url)' --entity Ticker --sort symbol", statusLine: false)
        let first = try await e2e.waitFor(tmux, text: "row 1/300")

        try tmux.send(":")
        try e2e.type(tmux, "freq sector.name")
        let screen = try await e2e.waitFor(tmux, "the frequency view, live") { $0.contains { $0.contains("sector.name: value 1/11") && $0.contains("live, ") } }
        #expect(FrequencyEndToEndTests.frequencies(screen).map(\.count).reduce(0, +) == 300)
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, text: "row 1/300")

        try tmux.send("%")
        _ = try await e2e.waitFor(tmux, "the summary line") { s in s.contains { $0.hasPrefix("Σ n=300") } }
        try tmux.send("%")

        let symbols = first[2...3].compactMap { $0.split(separator: " ").first.map(String.init) }
        try e2e.type(tmux, "2v", enter: false)
        _ = try await e2e.waitFor(tmux, text: "2 selected")
        try tmux.send(":")
        try e2e.type(tmux, "set price = 4242")
        _ = try await e2e.waitFor(tmux, text: "set price of 2 Ticker objects; saved to disk")
        _ = try await e2e.waitFor(tmux, "the new prices") { s in
            symbols.allSatisfy { symbol in s.contains { $0.hasPrefix("* \(symbol) ") && ($0.contains("4,242.00") || $0.contains("4242.00")) } }
        }
        try tmux.send("u")
        _ = try await e2e.waitFor(tmux, text: "undid the set of price of 2 Ticker objects")
        try tmux.send("Escape")

        try tmux.send(":")
        try e2e.type(tmux, "since 10m")
        _ = try await e2e.waitFor(tmux, "the since list") { s in s.contains { $0.contains("Since 10m:") && $0.contains("inserted") } }
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }
}
