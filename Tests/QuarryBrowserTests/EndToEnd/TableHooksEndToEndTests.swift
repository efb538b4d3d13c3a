import Foundation
import QuarryTestSupport
import Testing

/// `quarry browse --formats FILE` and `--on-enter` in a real terminal (issue 35, items 9 and
/// 10; the screen-buffer side is `CellFormatScreenTests` and `SelectionActionTests`).
@Suite("End to end in tmux: cell formats and what Enter does", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct TableHooksEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()
    /// The sectors `quarry demo --seed-only` makes (`DemoModel.sectorNames`).
    static let sectorNames = ["Communication", "Consumer Discretionary", "Consumer Staples", "Energy", "Financials", "Health Care",
                              "Industrials", "Information Technology", "Materials", "Real Estate", "Utilities"]

    @Test("--formats shows prices with four decimals and mapped sectors; --on-enter edit opens the form on Enter")
    func formatsAndOnEnter() async throws {
        let store = directory.file("tickers.sqlite").path
        try e2e.seed(store, rows: 30)
        let formats = directory.file("formats.toml")
        // Every sector shown as SEC1, SEC2, …
        let map = Self.sectorNames.enumerated().map { "\"\($1)\" = \"SEC\($0 + 1)\"" }.joined(separator: ", ")
        try Data("""
            [Ticker.price]
            number = 4

            [Ticker.sector]
            map = { \(map) }
            """.utf8).write(to: formats)
        let tmux = TmuxHarness(width: 140, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol --formats \(formats.path) --on-enter edit", statusLine: false)
        let screen = try await e2e.waitFor(tmux, text: "row 1/30")
        let rows = screen.filter { $0.range(of: #"\d+\.\d{4}\b"#, options: .regularExpression) != nil }
        #expect(!rows.isEmpty, "prices with four decimals: \(screen.joined(separator: "\n"))")
        let text = screen.joined(separator: "\n")
        #expect(text.contains("SEC"), "mapped sectors: \(text)")
        #expect(!Self.sectorNames.contains { text.contains($0) }, "no sector shown unmapped: \(text)")
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, text: "Edit Ticker")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the form to close") { !$0.contains { $0.contains("Edit Ticker") } }
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }
}
