import Foundation
import QuarryTestSupport
import Testing

/// Scrolled right in a narrow terminal, then widened (issue 34, item 17): the columns scroll
/// back so the wide terminal shows them from the first, not the last ones beside blank space.
@Suite("End to end in tmux: the column scroll after a resize", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct ColumnScrollEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("scrolled to the last column at 50 columns, a resize to 160 shows every column from the first")
    func resizeScrollsBack() async throws {
        let store = directory.file("columns.sqlite").path
        try e2e.seed(store, rows: 50)
        let tmux = TmuxHarness(width: 50, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        var screen = try await e2e.waitFor(tmux, text: "row 1/50")
        #expect(screen[1].hasPrefix("symbol"))
        let columns = try #require(screen.compactMap { $0.firstMatch(of: /col \d+\/(\d+)/).flatMap { Int($0.1) } }.first)
        for _ in 1..<columns { try tmux.send("l") }
        screen = try await e2e.waitFor(tmux, "the column cursor on the last column") { s in
            s.contains { $0.contains("col \(columns)/\(columns)") } && !s[1].hasPrefix("symbol")
        }

        try tmux.tmux("resize-window", "-t", tmux.session, "-x", "160", "-y", "30")
        screen = try await e2e.waitFor(tmux, "the header from the first column at 160 columns") { s in
            s.count > 1 && s[1].hasPrefix("symbol") && s[1].contains("sector")
        }
        #expect(screen.contains { $0.contains("col \(columns)/\(columns)") })
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }
}
