import Foundation
import QuarryTestSupport
import Testing

/// Issue 15 in a real terminal: exit statuses, `--sort -price`, escaped control characters,
/// `TERM=dumb`, `LC_ALL=C`, and pastes, driven with `send-keys` and read back with `capture-pane`.
@Suite("End to end in tmux: trust", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct TrustEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// A seeded store of `rows` tickers.
    func store(_ name: String, rows: Int = 50) throws -> String {
        let path = directory.file(name).path
        try e2e.seed(path, rows: rows)
        return path
    }

    /// Runs `quarry browse ARGS` in the shell, followed by an echo of its exit status.
    func browse(_ tmux: TmuxHarness, _ arguments: String, environment: String = "") throws {
        // The marker is split in the typed line, so only the shell's output matches it.
        try e2e.type(tmux, "clear; \(environment) \(try e2e.quarry()) browse \(arguments); echo \"ex\"\"it=$?\"")
    }

    /// A shell running `quarry browse` on a new store of `rows` tickers, showing its first screen.
    func browsing(_ name: String, rows: Int = 50, arguments: String = "--entity Ticker --sort symbol",
                  environment: String = "") async throws -> TmuxHarness {
        let path = try store(name, rows: rows)
        let tmux = try await e2e.shell()
        try browse(tmux, "\(path) \(arguments)", environment: environment)
        _ = try await e2e.waitFor(tmux, text: "row 1/\(rows)")
        return tmux
    }

    /// Opens the filter prompt and clears it.
    func openFilterPrompt(_ tmux: TmuxHarness) throws {
        try tmux.send("f")
        try tmux.send("C-u")
    }

    /// The pid of the program the pane's shell runs.
    func childPID(_ tmux: TmuxHarness) throws -> Int32 {
        let shellPID = try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{pane_pid}").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try TmuxHarness.run(["pgrep", "-P", shellPID]).output
        return try #require(children.split(separator: "\n").first.flatMap { Int32($0) })
    }

    @Test("exit status 130 after Ctrl-C, 143 after SIGTERM, 129 after SIGHUP, the terminal restored each time")
    func exitStatuses() async throws {
        let path = try store("exit.sqlite")
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        let before = try await e2e.stty(tmux, "before")
        for (signal, status) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
            try browse(tmux, "\(path) --entity Ticker")
            _ = try await e2e.waitFor(tmux, text: "row 1/50")
            if signal == SIGINT { try tmux.send("C-c") } else { kill(try childPID(tmux), signal) }
            _ = try await e2e.waitFor(tmux, text: "exit=\(status)")
        }
        #expect(try await e2e.stty(tmux, "after") == before)
    }

    @Test("--sort -price sorts by price descending, as --help documents")
    func sortWithLeadingDash() async throws {
        let tmux = try await browsing("sort.sqlite", arguments: "--entity Ticker --sort -price")
        defer { tmux.shutDown() }
        let screen = try tmux.screen()
        #expect(screen[0].contains("sort price ▼"))
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("a store's ESC sequences and an --entity echo are shown escaped: no retitle, no clear")
    func controlCharactersAreEscaped() async throws {
        let path = try store("evil.sqlite")
        let update = "UPDATE Ticker SET name = char(27)||']2;pwned'||char(7)||char(27)||'[2J' WHERE symbol = 'A'"
        #expect(try TmuxHarness.run(["sqlite3", path, update]).status == 0)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try tmux.tmux("set-option", "-t", tmux.session, "allow-rename", "on")
        let title = try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{pane_title}").output
        try browse(tmux, "\(path) --entity Ticker --sort symbol")
        let screen = try await e2e.waitFor(tmux, text: "^[]2;pwned^G^[[2J")
        #expect(screen[0].contains("quarry · evil.sqlite"))
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
        try browse(tmux, "\(path) --entity \"$(printf 'X\\033]2;pwned\\a')\"")
        // A usage error (64), so the previous run's exit=0 cannot be mistaken for this one's.
        let error = try await e2e.waitFor(tmux, text: "exit=64")
        #expect(error.contains { $0.contains("X^[]2;pwned^G") })

        // A store whose model names an entity with escape sequences: the refusal shows them escaped.
        let crafted = try store("crafted.sqlite")
        let rename = #"UPDATE Z_METADATA SET value = replace(value, '"name": "Quote"', '"name": "Q\u001b]2;pwned\u0007\u001b[2J"') WHERE key = 'model'"#
        #expect(try TmuxHarness.run(["sqlite3", crafted, rename]).status == 0)
        try browse(tmux, crafted)
        let refusal = try await e2e.waitFor(tmux, text: "exit=1")
        #expect(refusal.joined().contains("'Q^[]2;pwned^G^[[2J' is not a valid name"))  // the message wraps
        #expect(try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{pane_title}").output == title)
    }

    @Test("TERM=dumb is refused with a clear message before the screen is touched")
    func dumbTerminalIsRefused() async throws {
        let path = try store("dumb.sqlite")
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try browse(tmux, "\(path)", environment: "TERM=dumb")
        let screen = try await e2e.waitFor(tmux, text: "exit=")
        #expect(screen.contains { $0.contains("cannot move the cursor") })
        #expect(screen.contains { $0.contains("exit=1") })
    }

    @Test("with LC_ALL=C every glyph has an ASCII stand-in: the sort arrow is ^ and the separators are dots")
    func asciiLocale() async throws {
        let tmux = try await browsing("ascii.sqlite", environment: "LC_ALL=C")
        defer { tmux.shutDown() }
        let screen = try tmux.screen()
        #expect(screen[0].contains("quarry . ascii.sqlite . Ticker . sort symbol ^"))
        #expect(screen[1].hasPrefix("symbol ^"))
        #expect(screen.contains { $0.contains("row 1/50 . col 1/") && $0.contains("sort symbol ^") })
        #expect(!screen.joined().contains { !$0.isASCII })
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("a bracketed paste with an ESC and q goes into the filter prompt as text; a combining accent does not crash")
    func pasteAndCombiningCharacter() async throws {
        let tmux = try await browsing("paste.sqlite")
        defer { tmux.shutDown() }
        try openFilterPrompt(tmux)
        try tmux.tmux("send-keys", "-t", tmux.session, "-l", "name == 'e\u{301}")
        try tmux.tmux("set-buffer", "-b", "p", "x\u{1B}q")
        try tmux.tmux("paste-buffer", "-p", "-b", "p", "-t", tmux.session)
        _ = try await e2e.waitFor(tmux, text: "filter: name == 'é" + "x^[q")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the prompt to close") { s in !s.contains { $0.contains("filter: name") } }
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    /// A filter that takes minutes on 20,000 tickers: every ticker joined with every ticker of
    /// its sector (36 million pairs), each through the LIKE function, and nothing matches, so no
    /// row stops the scan early.
    static let slowFilter = "ANY sector.tickers.name LIKE '*zz*'"

    /// Types the slow filter into the prompt and waits until the status line says it runs.
    func startSlowFilter(_ tmux: TmuxHarness) async throws {
        try openFilterPrompt(tmux)
        try e2e.type(tmux, Self.slowFilter)
        _ = try await e2e.waitFor(tmux, text: "filtering… (Esc cancels)")
    }

    @Test("a slow filter says filtering…; Esc cancels it and the old filter stays; q and SIGTERM quit during one")
    func slowFilterIsCancellable() async throws {
        let tmux = try await browsing("slow.sqlite", rows: 20000)
        defer { tmux.shutDown() }
        try openFilterPrompt(tmux)
        try e2e.type(tmux, "price > 100")
        _ = try await e2e.waitFor(tmux, "the first filter") { s in s[0].contains("filter price > 100") }

        try await startSlowFilter(tmux)
        try tmux.send("j")
        _ = try await e2e.waitFor(tmux, text: "row 2/")
        // A key that acts on the cursor's row waits for the new rows; cancelling drops it.
        try tmux.send("e")
        _ = try await e2e.waitFor(tmux, text: "the key acts on the new rows")
        try tmux.send("Escape")
        let screen = try await e2e.waitFor(tmux, text: "filter cancelled; the old filter stays (the key typed meanwhile dropped)")
        #expect(screen[0].contains("filter price > 100"))
        #expect(!screen.contains { $0.contains("Edit Ticker") })

        try await startSlowFilter(tmux)
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
        let before = try await e2e.stty(tmux, "after-q")

        try browse(tmux, "\(directory.file("slow.sqlite").path) --entity Ticker --sort symbol")
        _ = try await e2e.waitFor(tmux, text: "row 1/20000")
        try await startSlowFilter(tmux)
        kill(try childPID(tmux), SIGTERM)
        _ = try await e2e.waitFor(tmux, text: "exit=143")
        #expect(try await e2e.stty(tmux, "after") == before)
    }

    @Test("Ctrl-C over an edit form asks; n returns to the form with the typed value; y quits with 130")
    func quitQuestionOverAForm() async throws {
        let tmux = try await browsing("quit.sqlite")
        defer { tmux.shutDown() }
        try await e2e.editPrice(tmux, "4242.5")
        _ = try await e2e.waitFor(tmux, text: "4242.5")
        try tmux.send("C-c")
        _ = try await e2e.waitFor(tmux, text: "Quit and discard the unsaved edits? (y/n)")
        try tmux.send("n")
        let screen = try await e2e.waitFor(tmux, "the form again") { s in
            s.contains { $0.contains("Edit Ticker") } && !s.contains { $0.contains("Quit and discard") }
        }
        #expect(screen.contains { $0.contains("4242.5") })
        try tmux.send("C-c")
        _ = try await e2e.waitFor(tmux, text: "Quit and discard the unsaved edits? (y/n)")
        try tmux.send("y")
        _ = try await e2e.waitFor(tmux, text: "exit=130")
    }

    @Test("a long filter's error scrolls the prompt so the marker stands under the column at fault")
    func longFilterErrorShowsItsColumn() async throws {
        let tmux = try await browsing("long.sqlite")
        defer { tmux.shutDown() }
        try openFilterPrompt(tmux)
        let head = (0..<20).map { "price > \($0)" }.joined(separator: " AND ")
        try e2e.type(tmux, head + " AND price >> 1 AND volume > 0")
        let screen = try await e2e.waitFor(tmux, text: "unexpected '>' at column 298")
        let errorRow = try #require(screen.first { $0.contains("unexpected '>' at column 298") })
        let promptRow = Array(try #require(screen.first { $0.hasPrefix("filter: ") }))
        // The marker is `^ message` or, near the right edge, `message ^`.
        let marker = try #require(errorRow.range(of: "^ unexpected")?.lowerBound ?? errorRow.lastIndex(of: "^"))
        let column = errorRow.distance(from: errorRow.startIndex, to: marker)
        #expect(promptRow.indices.contains(column) && promptRow[column] == ">" && promptRow[column - 1] == ">")
        try tmux.send("Escape")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }
}
