import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing

/// Issue 41's motions, hops and selection in a real terminal: `10j`, `Ctrl-D`, `$`; Enter on a
/// ticker's sector cell and Backspace back; three rows selected, deleted (y), and brought back
/// with `u`, checked in the store with sqlite3; `:since 10m` lists what changed.
@Suite("End to end in tmux: counts, hops and selection", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct MotionsEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// The `col N/M` of the status line.
    static func columnNumbers(_ screen: [String]) -> (column: Int, total: Int)? {
        guard let status = screen.last(where: { $0.contains("col ") }),
              let range = status.range(of: #"col \d+/\d+"#, options: .regularExpression) else { return nil }
        let parts = status[range].dropFirst(4).split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// How many tickers of `symbols` the store holds (a fresh sqlite3 read).
    func stored(_ path: String, _ symbols: [String]) throws -> Int? {
        let list = symbols.map { "'\($0)'" }.joined(separator: ",")
        let result = try TmuxHarness.run(["sqlite3", path, "SELECT count(*) FROM Ticker WHERE symbol IN (\(list))"])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("10j, Ctrl-D, $ and 0; Enter on sector lands on the sector, Backspace comes back; 3v, d, y deletes three, u brings them back")
    func countsHopsAndSelection() async throws {
        guard (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 else {
            Issue.record("sqlite3 is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let path = directory.file("motions.sqlite").path
        try e2e.seed(path, rows: 200)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try e2e.type(tmux, "clear; \(try e2e.quarry()) browse \(path) --entity Ticker --sort symbol; echo \"ex\"\"it=$?\"")
        _ = try await e2e.waitFor(tmux, text: "row 1/200")

        try e2e.type(tmux, "10j", enter: false)
        _ = try await e2e.waitFor(tmux, text: "row 11/200")
        try tmux.send("C-d")
        let halfDown = try await e2e.waitFor(tmux, "half a page down") { (TerminalEndToEndTests.rowNumbers($0)?.row ?? 0) > 11 }
        let row = try #require(TerminalEndToEndTests.rowNumbers(halfDown)?.row)
        try tmux.send("$")
        _ = try await e2e.waitFor(tmux, "the last column") { s in Self.columnNumbers(s).map { $0.column == $0.total } ?? false }
        try tmux.send("0")
        _ = try await e2e.waitFor(tmux, text: "col 1/")

        // The sector cell: Enter lands on that sector, Backspace restores the ticker table.
        try tmux.send("c")
        try e2e.type(tmux, "sector")
        _ = try await e2e.waitFor(tmux, "the sector column") { s in (Self.columnNumbers(s)?.column ?? 1) > 1 }
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, "the Sector table") { $0[0].contains("· Sector ·") }
        try tmux.send("BSpace")
        let back = try await e2e.waitFor(tmux, "the Ticker table again") { $0[0].contains("· Ticker ·") && TerminalEndToEndTests.rowNumbers($0)?.row == row }
        #expect(back[0].contains("sort symbol"))

        // Three rows selected, deleted, brought back.
        try tmux.send("g")
        let top = try await e2e.waitFor(tmux, text: "row 1/200")
        let symbols = top[2...4].compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(symbols.count == 3)
        try e2e.type(tmux, "3v", enter: false)
        _ = try await e2e.waitFor(tmux, text: "3 selected")
        try tmux.send("d")
        _ = try await e2e.waitFor(tmux, text: "Delete the 3 selected Ticker objects")
        try tmux.send("y")
        _ = try await e2e.waitFor(tmux, text: "saved to disk")
        _ = try await e2e.waitFor(tmux, "the three rows gone") { s in !s.contains { line in symbols.contains { line.hasPrefix($0 + " ") } } }
        #expect(try stored(path, symbols) == 0)
        try tmux.send("u")
        _ = try await e2e.waitFor(tmux, text: "undid the delete of 3 Ticker objects")
        #expect(try stored(path, symbols) == 3)
        try tmux.send("g")
        _ = try await e2e.waitFor(tmux, "the three rows back") { s in symbols.allSatisfy { symbol in s.contains { $0.hasPrefix(symbol + " ") } } }

        // What changed in the last ten minutes: the seed, the delete, the undo.
        try tmux.send(":")
        try e2e.type(tmux, "since 10m")
        let since = try await e2e.waitFor(tmux, text: "Since 10m:")
        #expect(since.contains { $0.contains("deleted") && $0.contains("inserted") }, "the title counts both")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the list closed") { !$0.contains { $0.contains("Since 10m:") } }
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    /// How many tickers the store holds at `price` (a fresh sqlite3 read).
    func count(_ path: String, price: Int) throws -> Int? {
        let result = try TmuxHarness.run(["sqlite3", path, "SELECT count(*) FROM Ticker WHERE price = \(price)"])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("2v, :set price = … writes both rows (sqlite3 sees them), u takes it back; x exports the two; :since marks, x exports the list, :since off")
    func setExportAndSince() async throws {
        guard (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 else {
            Issue.record("sqlite3 is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let path = directory.file("set.sqlite").path
        try e2e.seed(path, rows: 50)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try e2e.type(tmux, "clear; \(try e2e.quarry()) browse \(path) --entity Ticker --sort symbol; echo \"ex\"\"it=$?\"")
        _ = try await e2e.waitFor(tmux, text: "row 1/50")

        try e2e.type(tmux, "2v", enter: false)
        _ = try await e2e.waitFor(tmux, text: "2 selected")
        try tmux.send(":")
        try e2e.type(tmux, "set price = 12345")
        _ = try await e2e.waitFor(tmux, text: "set price of 2 Ticker objects; saved to disk")
        #expect(try count(path, price: 12345) == 2)
        try tmux.send("u")
        _ = try await e2e.waitFor(tmux, text: "undid the set of price of 2 Ticker objects")
        #expect(try count(path, price: 12345) == 0)

        let picked = try await e2e.exportSelection(tmux, suggested: "Ticker-selected.csv", to: directory.file("picked.csv").path, rows: 2)
        #expect(picked.count == 3, "the header and the two rows: \(picked)")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, text: "unselected 2")

        let changes = directory.file("changes.jsonl").path
        try tmux.send(":")
        try e2e.type(tmux, "since 10m")
        _ = try await e2e.waitFor(tmux, text: "Since 10m:")
        try tmux.send("x")
        _ = try await e2e.waitFor(tmux, text: "export to: since-10m.csv")
        try tmux.send("C-u")
        try e2e.type(tmux, changes)
        _ = try await e2e.waitFor(tmux, text: "exported ")
        let records = try String(contentsOfFile: changes, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(records.count >= 50, "the seed's inserts at least: \(records.count)")
        #expect(records.first?.contains("\"change\":") == true, "JSON Lines for .jsonl: \(records.first ?? "")")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the list closed") { !$0.contains { $0.contains("Since 10m:") } }
        try tmux.send(":")
        try e2e.type(tmux, "since off")
        _ = try await e2e.waitFor(tmux, text: "the :since marks are cleared")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }
}
