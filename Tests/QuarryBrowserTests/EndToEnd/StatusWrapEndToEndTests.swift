import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing

/// Errors at 60 columns (issue 34, item 16): a status-line error and a filter's error are shown
/// whole, wrapped onto more rows, the line and column numbers they name included.
@Suite("End to end in tmux: errors wrap at 60 columns", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct StatusWrapEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("a malformed theme's error on the status line and a filter's error in the prompt are whole at 60 columns")
    func errorsWrap() async throws {
        let store = directory.file("narrow.sqlite").path
        try e2e.seed(store, rows: 50)
        let theme = directory.file("bad.toml")
        try "[cursor]\nfg = \"blurple\"\n".write(to: theme, atomically: true, encoding: .utf8)
        let problem = try #require(ThemeLoader.resolve(name: theme.path, environment: [:], searchDirectories: []).problem)
        let message = "theme: \(problem) (using the default theme)"
        let wrapped = DisplayWidth.wrap(message, toWidth: 59)
        #expect(wrapped.count > 1)

        let tmux = TmuxHarness(width: 60, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol --theme \(theme.path)", statusLine: false)
        // The message's first lines on rows of their own, its last beside the position.
        let screen = try await e2e.waitFor(tmux, "the whole theme error") { screen in
            let rows = Array(screen.prefix(20).suffix(wrapped.count))
            return rows.dropLast() == wrapped.dropLast().map { " " + $0 } && rows.last?.contains(wrapped.last!) == true
        }
        #expect(screen.prefix(20).joined(separator: "\n").contains(":2: key 'cursor.fg'"))

        try tmux.send("f")
        try tmux.tmux("send-keys", "-t", tmux.session, "-l", "price > 'abc'")
        try tmux.send("Enter")
        let error = "cannot compare 'price' (Double) with the string 'abc' at column 9"
        let lines = DisplayWidth.wrap(error, toWidth: 60)
        let filterScreen = try await e2e.waitFor(tmux, "the whole filter error") { screen in
            Array(screen.prefix(20).suffix(lines.count + 1)) == lines + ["filter: price > 'abc'"]
        }
        #expect(filterScreen.prefix(20).joined(separator: " ").contains("at column 9"))
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }
}
