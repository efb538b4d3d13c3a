import Foundation
import QuarryTestSupport
import Testing

/// `quarry browse` in one tmux session, and other programs writing its store: `sqlite3` (behind
/// Quarry's back) and `quarry demo --import-only` (through Quarry, with history).
@Suite("End to end in tmux: live across processes", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct RemoteChangeEndToEndTests {
    let directory = TemporaryDirectory()

    func quarry() throws -> String {
        try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)").path
    }

    /// The status line's `row r/N` numbers.
    static func rowNumbers(_ screen: [String]) -> (row: Int, total: Int)? {
        guard let status = screen.last(where: { $0.contains("row ") }),
              let range = status.range(of: #"row \d+/\d+"#, options: .regularExpression) else { return nil }
        let parts = status[range].dropFirst(4).split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    func waitFor(_ tmux: TmuxHarness, _ what: String, _ predicate: @escaping ([String]) -> Bool) async throws -> [String] {
        if let screen = try await tmux.waitForScreen(timeout: .seconds(60), predicate) { return screen }
        Issue.record("timed out waiting for \(what); the screen was:\n\(try tmux.screen().joined(separator: "\n"))")
        throw CancellationError()
    }

    @Test("the browser shows another process's imports live with the cursor kept on its object, and says so when sqlite3 changed the store")
    func browserFollowsOtherProcesses() async throws {
        let store = directory.file("live.sqlite").path
        let seeded = try TmuxHarness.run([try quarry(), "demo", "--seed-only", "--no-import", "--rows", "300", "--store", store])
        #expect(seeded.status == 0)
        let browser = TmuxHarness(width: 120, height: 30)
        defer { browser.shutDown() }
        try browser.start("\(try quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        var screen = try await waitFor(browser, "the first screen") { Self.rowNumbers($0)?.total == 300 }
        let firstRow = screen[2]

        // Behind Quarry's back: no history, so the browser re-fetches and says "external change".
        if (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 {
            let symbol = try #require(firstRow.split(separator: " ").first.map(String.init))
            let deleted = try TmuxHarness.run(["sqlite3", store, "DELETE FROM Ticker WHERE symbol = '\(symbol)'"])
            #expect(deleted.status == 0, "\(deleted.output)")
            screen = try await waitFor(browser, "the external change") { s in
                Self.rowNumbers(s)?.total == 299 && s.contains { $0.contains("external change") }
            }
            #expect(screen[2] != firstRow)
        }
        let before = try #require(Self.rowNumbers(screen)).total

        // The cursor on "M": the seeded symbols end …, "KN", "L", "M", …, "Z", and the importer's
        // new ones ("KO", "KP", …, "LA", …) sort before "M", so rows arrive above the cursor.
        try browser.send("G")
        screen = try await waitFor(browser, "the last row") { Self.rowNumbers($0).map { $0.row == $0.total } ?? false }
        for _ in 0..<13 { try browser.send("k") }
        screen = try await waitFor(browser, "the cursor 13 rows up") { Self.rowNumbers($0)?.row == before - 13 }
        func symbol(_ line: String) -> String? { line.split(separator: " ").first.map(String.init) }
        let lastLine = try #require(screen.lastIndex { symbol($0) == "Z" }, "no row Z on the screen")
        let cursorLine = lastLine - 13
        try #require(symbol(screen[cursorLine]) == "M", "the cursor's row is \(screen[cursorLine])")

        // Through Quarry in another process: merged from history, rows appear live, and the
        // cursor stays on its object ("M") and its screen row while rows are inserted above it.
        let importer = TmuxHarness(width: 80, height: 10)
        defer { importer.shutDown() }
        try importer.start("\(try quarry()) demo --import-only --store \(store) --rate 400", statusLine: false)
        screen = try await waitFor(browser, "the other process's rows") { s in (Self.rowNumbers(s)?.total ?? 0) > before + 20 }
        let now = try #require(Self.rowNumbers(screen))
        #expect(now.row > before - 13, "no row arrived above the cursor")
        #expect(symbol(screen[cursorLine]) == "M", "the cursor left its object: \(screen[cursorLine])")
        try browser.send("q")
        #expect(try await browser.waitForSessionEnd(timeout: .seconds(60)))
    }

    @Test("a failed read of the store's history, by another process's doing, is an error on the status line")
    func historyFailureOnTheStatusLine() async throws {
        guard (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 else {
            Issue.record("sqlite3 is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let store = directory.file("failing.sqlite").path
        let seeded = try TmuxHarness.run([try quarry(), "demo", "--seed-only", "--no-import", "--rows", "50", "--store", store])
        #expect(seeded.status == 0)
        let browser = TmuxHarness(width: 160, height: 30)
        defer { browser.shutDown() }
        try browser.start("\(try quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        _ = try await waitFor(browser, "the first screen") { Self.rowNumbers($0)?.total == 50 }

        // Another process drops the history's change table and commits a transaction marked as a
        // Quarry save: the browser's stack reads that history, and cannot.
        let version = try TmuxHarness.run(["sqlite3", store, "PRAGMA user_version"])
        let saveCount = try #require(Int(version.output.trimmingCharacters(in: .whitespacesAndNewlines)), "user_version: \(version.output)")
        let vandal = try TmuxHarness.run(["sqlite3", store, HistoryVandal.dropChangesScript(saveCount: saveCount)])
        #expect(vandal.status == 0, "\(vandal.output)")
        let screen = try await waitFor(browser, "the history failure on the status line") { s in
            // The status line wraps a long error onto the line above it.
            let bottom = s.suffix(3).joined(separator: " ")
            return bottom.contains("remote changes: cannot read the history") && bottom.contains("no such table: Z_HISTORYCHANGE")
        }
        #expect(screen.contains { $0.contains("remote changes:") })
        try browser.send("q")
        #expect(try await browser.waitForSessionEnd(timeout: .seconds(60)))
    }
}
