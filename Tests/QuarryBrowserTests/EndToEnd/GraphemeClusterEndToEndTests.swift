import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing

/// A ZWJ emoji sequence in stored text (issue 34, item 23): drawn whole in two cells, the
/// columns after it and the status line in place, before and after Ctrl-L.
@Suite("End to end in tmux: grapheme clusters", .serialized,
       .enabled(if: TmuxHarness.isAvailable && (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0, "tmux or sqlite3 is not installed"))
struct GraphemeClusterEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()
    static let family = "👨‍👩‍👧‍👦"

    /// The display column where `text` starts in `row`, as the terminal lays it out.
    func column(of text: String, in row: String) -> Int? {
        row.range(of: text).map { DisplayWidth.of(row[..<$0.lowerBound]) }
    }

    /// Checks the rows of `A` (the family) and `AA`, and the status line.
    func checkScreen(_ screen: [String]) throws {
        let header = screen[1]
        let family = try #require(screen.first { $0.hasPrefix("A ") }, "no row A: \(screen)")
        let plain = try #require(screen.first { $0.hasPrefix("AA ") }, "no row AA: \(screen)")
        // tmux keeps at most 21 bytes of a cell: the first three of the family at least.
        #expect(family.contains("👨\u{200D}👩\u{200D}👧"), "the family is not whole: \(family.debugDescription)")
        let nameX = try #require(column(of: "name", in: header))
        #expect(column(of: "family", in: family) == nameX + 3, "\(family.debugDescription)")
        // The next column (change, `0.00`) ends where it ends on every other row.
        let changeEnd = try #require(column(of: "change", in: header)) + "change".count
        #expect(column(of: "0.00 ", in: family).map { $0 + 4 } == changeEnd, "\(family.debugDescription)")
        #expect(column(of: "0.00 ", in: plain).map { $0 + 4 } == changeEnd, "\(plain.debugDescription)")
        let status = try #require(screen.last { $0.contains("row ") })
        #expect(status.hasPrefix(" row ") && status.contains(" · col 1/"), "\(status.debugDescription)")
        #expect(!status.unicodeScalars.contains("\u{200D}"), "a joiner on the status line: \(status.debugDescription)")
    }

    @Test("a family emoji is drawn whole, the row and the status line stay aligned, also after Ctrl-L and moves")
    func familyEmoji() async throws {
        let store = directory.file("emoji.sqlite").path
        try e2e.seed(store, rows: 50)
        let update = try TmuxHarness.run(["sqlite3", store, "UPDATE Ticker SET name = '\(Self.family) family' WHERE symbol = 'A'"])
        #expect(update.status == 0, "\(update.output)")

        let tmux = TmuxHarness(width: 120, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        try checkScreen(try await e2e.waitFor(tmux, text: "row 1/50"))
        try tmux.send("j")
        try checkScreen(try await e2e.waitFor(tmux, text: "row 2/50"))
        try tmux.send("k")
        try tmux.send("C-l")
        try checkScreen(try await e2e.waitFor(tmux, text: "row 1/50"))
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }
}
