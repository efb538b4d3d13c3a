import Foundation
import QuarryTestSupport
import Testing

/// Issue 39's undo in a real terminal: edit a ticker's price, save, `u` puts the old price back
/// (table and store), `Ctrl-R` redoes it; after `sqlite3` changed the price behind Quarry's
/// back, `u` is refused with a message and the store keeps sqlite3's value.
@Suite("End to end in tmux: undo and redo", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct UndoEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// The price `sqlite3` reads for `symbol`.
    func storedPrice(_ store: String, _ symbol: String) throws -> Double? {
        let result = try TmuxHarness.run(["sqlite3", store, "SELECT price FROM Ticker WHERE symbol = '\(symbol)'"])
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("edit, save, u: the old price is back in the table and the store; Ctrl-R redoes; after sqlite3 changed it, u is refused")
    func undoInTerminal() async throws {
        guard (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 else {
            Issue.record("sqlite3 is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let store = directory.file("undo.sqlite").path
        try e2e.seed(store, rows: 50)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try e2e.type(tmux, "clear; \(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol; echo \"ex\"\"it=$?\"")
        var screen = try await e2e.waitFor(tmux, text: "row 1/50")
        let symbol = try #require(screen[2].split(separator: " ").first.map(String.init))
        let old = try #require(try storedPrice(store, symbol))

        try tmux.send("e")
        _ = try await e2e.waitFor(tmux, text: "Edit Ticker")
        try tmux.send("Tab")  // symbol → name
        try tmux.send("Tab")  // name → price
        try tmux.send("C-u")
        try e2e.type(tmux, "4321.5", enter: false)
        try tmux.send("C-s")
        _ = try await e2e.waitFor(tmux, text: "saved to disk")
        #expect(try storedPrice(store, symbol) == 4321.5)
        _ = try await e2e.waitFor(tmux, "the new price in the table") { $0.contains { $0.hasPrefix(symbol) && ($0.contains("4321.50") || $0.contains("4,321.50")) } }

        try tmux.send("u")
        screen = try await e2e.waitFor(tmux, text: "undid the edit of Ticker")
        #expect(try storedPrice(store, symbol) == old)
        _ = try await e2e.waitFor(tmux, "the old price in the table") { s in !s.contains { $0.hasPrefix(symbol) && ($0.contains("4321.50") || $0.contains("4,321.50")) } }

        try tmux.send("C-r")
        _ = try await e2e.waitFor(tmux, text: "redid the edit of Ticker")
        #expect(try storedPrice(store, symbol) == 4321.5)

        // Behind Quarry's back: the undo would overwrite sqlite3's price, so it is refused.
        let updated = try TmuxHarness.run(["sqlite3", store, "UPDATE Ticker SET price = 77 WHERE symbol = '\(symbol)'"])
        #expect(updated.status == 0, "\(updated.output)")
        _ = try await e2e.waitFor(tmux, "sqlite3's price in the table") { $0.contains { $0.hasPrefix(symbol) && $0.contains("77.00") } }
        try tmux.send("u")
        screen = try await e2e.waitFor(tmux, text: "cannot undo the edit of Ticker")
        #expect(screen.joined(separator: " ").contains("'price'"), "the refusal names the property")
        #expect(try storedPrice(store, symbol) == 77)
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }
}
