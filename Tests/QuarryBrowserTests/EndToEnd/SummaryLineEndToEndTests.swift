import Foundation
import QuarryTestSupport
import Testing

/// The summary line in a real terminal: `%` on a demo store's tickers shows the count under the
/// table, kept live while another process deletes tickers; `%` again hides it.
@Suite("End to end in tmux: the summary line", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct SummaryLineEndToEndTests {
    let directory = TemporaryDirectory()

    /// The shared end-to-end helpers: the built `quarry`, waiting for a screen.
    let e2e = TerminalEndToEndTests()

    @Test("% shows the totals under the table, live across another process's delete; % hides them")
    func summaryLineLive() async throws {
        let store = directory.file("summary.sqlite").path
        try e2e.seed(store, rows: 500)
        let browser = TmuxHarness(width: 140, height: 30)
        defer { browser.shutDown() }
        try browser.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        _ = try await e2e.waitFor(browser, "the first screen") { $0.contains { $0.contains("row 1/500") } }
        try browser.send("%")
        var screen = try await e2e.waitFor(browser, "the summary line") { $0.contains { $0.hasPrefix("Σ n=500 distinct=500") } }
        #expect(screen[28].hasPrefix("Σ n=500"), "the line under the rows, above the status line: \(screen[28])")
        let delete = try TmuxHarness.run([try e2e.quarry(), "delete", store, "--entity", "Ticker", "--where", "symbol BEGINSWITH 'A'", "--yes"])
        #expect(delete.status == 0, "\(delete.output)")
        let left = try TmuxHarness.run(["sqlite3", store, "SELECT count(*) FROM Ticker"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(left).map { $0 < 500 } == true, "the delete removed tickers: \(left) left")
        screen = try await e2e.waitFor(browser, "the summary after the delete") { $0.contains { $0.hasPrefix("Σ n=\(left) distinct=\(left)") } }
        try browser.send("%")
        _ = try await e2e.waitFor(browser, "the summary hidden") { !$0.contains { $0.hasPrefix("Σ n=") } }
        try browser.send("q")
        #expect(try await browser.waitForSessionEnd(timeout: .seconds(60)))
    }
}
