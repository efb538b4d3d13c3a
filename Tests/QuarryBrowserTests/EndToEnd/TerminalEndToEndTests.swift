import Foundation
import QuarryTestSupport
import Testing

/// The real program in a real terminal: `quarry demo` and `quarry browse` inside tmux at 120×40,
/// driven with `send-keys` and read back with `capture-pane`.
@Suite("End to end in tmux", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct TerminalEndToEndTests {
    let directory = TemporaryDirectory()
    static let prompt = "e2e$"

    func quarry() throws -> String {
        try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)").path
    }

    /// A 120×40 terminal running a plain shell with a known prompt.
    func shell() async throws -> TmuxHarness {
        let tmux = TmuxHarness(width: 120, height: 40)
        try tmux.start("env PS1='\(Self.prompt) ' bash --norc --noprofile", statusLine: false)
        #expect(try await tmux.waitForLastRow(Self.prompt, timeout: .seconds(60)))
        return tmux
    }

    /// Types `line` into the shell and presses Enter.
    func type(_ tmux: TmuxHarness, _ line: String, enter: Bool = true) throws {
        try tmux.tmux("send-keys", "-t", tmux.session, "-l", line)
        if enter { try tmux.send("Enter") }
    }

    /// `stty -a` of the pane's terminal, as its shell sees it.
    func stty(_ tmux: TmuxHarness, _ name: String) async throws -> String {
        let path = directory.file(name).path
        try type(tmux, "stty -a > \(path).tmp && mv \(path).tmp \(path)")
        #expect(try await TmuxHarness.waitForFile(path, timeout: .seconds(60)))
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The status line's `row r/N` numbers.
    static func rowNumbers(_ screen: [String]) -> (row: Int, total: Int)? {
        guard let status = screen.last(where: { $0.contains("row ") }),
              let range = status.range(of: #"row \d+/\d+"#, options: .regularExpression) else { return nil }
        let parts = status[range].dropFirst(4).split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    func waitFor(_ tmux: TmuxHarness, _ what: String, timeout: Int = 60, _ predicate: @escaping ([String]) -> Bool) async throws -> [String] {
        if let screen = try await tmux.waitForScreen(timeout: .seconds(timeout), predicate) { return screen }
        let last = try tmux.screen().joined(separator: "\n")
        Issue.record("timed out waiting for \(what); the screen was:\n\(last)")
        throw CancellationError()
    }

    func waitFor(_ tmux: TmuxHarness, text: String, timeout: Int = 60) async throws -> [String] {
        try await waitFor(tmux, "\"\(text)\"", timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// `x` with rows selected: waits for the prompt suggesting `suggested`, answers `path`,
    /// waits for "exported `rows` rows" and returns the lines written.
    func exportSelection(_ tmux: TmuxHarness, suggested: String, to path: String, rows: Int) async throws -> [Substring] {
        try tmux.send("x")
        _ = try await waitFor(tmux, text: "export to: \(suggested)")
        try tmux.send("C-u")
        try type(tmux, path)
        _ = try await waitFor(tmux, text: "exported \(rows) rows")
        return try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
    }

    /// Opens the edit form on the row under the cursor and types `price` into its price field
    /// (the form's fields are change, name, price, ...).
    func editPrice(_ tmux: TmuxHarness, _ price: String) async throws {
        try tmux.send("e")
        _ = try await waitFor(tmux, text: "Edit Ticker")
        try tmux.send("Tab")
        try tmux.send("Tab")
        try tmux.send("C-u")
        try type(tmux, price, enter: false)
    }

    func seed(_ store: String, rows: Int) throws {
        let result = try TmuxHarness.run([try quarry(), "demo", "--seed-only", "--no-import", "--rows", "\(rows)", "--store", store])
        #expect(result.status == 0)
    }

    @Test("demo: first screen, live rows, G, a filter, a bad filter, and q leaves a clean shell")
    func demo() async throws {
        let tmux = try await shell()
        defer { tmux.shutDown() }
        let before = try await stty(tmux, "before")
        try type(tmux, "clear; \(try quarry()) demo --store \(directory.file("demo.sqlite").path) --rows 3000 --rate 400")
        // A whole first frame: the section header and the status line.
        var screen = try await waitFor(tmux, "the first screen") { s in s.contains { $0.hasPrefix("▸ ") } && Self.rowNumbers(s) != nil }
        #expect(screen[0].contains("quarry · demo.sqlite · Ticker · sort sector.name ▲, symbol ▲"))
        #expect(screen[1].hasPrefix("symbol ▲"))
        #expect(screen[2].hasPrefix("▸ "))
        let first = try #require(Self.rowNumbers(screen))
        #expect(first.total >= 3000)

        // The importer keeps inserting: the total grows and the merge time shows.
        screen = try await waitFor(tmux, "rows to change") { s in
            (Self.rowNumbers(s)?.total ?? 0) > first.total && s.contains { $0.contains("merged") }
        }
        #expect(screen.last { $0.contains("row ") }?.contains("import") == true)

        try tmux.send("G")
        _ = try await waitFor(tmux, "the last row") { s in Self.rowNumbers(s).map { $0.row == $0.total } ?? false }

        try tmux.send("f")
        try type(tmux, "price > 900")
        screen = try await waitFor(tmux, "the filtered rows") { s in s[0].contains("filter price > 900") && Self.rowNumbers(s) != nil }
        let filtered = try #require(Self.rowNumbers(screen))
        #expect(filtered.total < first.total / 2)

        try tmux.send("f")
        try tmux.send("C-u")
        try type(tmux, "price >> 1")
        screen = try await waitFor(tmux, text: "^ unexpected")
        let errorLine = try #require(screen.first { $0.contains("^ unexpected") })
        #expect(errorLine.distance(from: errorLine.startIndex, to: try #require(errorLine.firstIndex(of: "^"))) == "filter: price >".count)
        try tmux.send("Escape")
        screen = try await waitFor(tmux, "the prompt to close") { s in !s.contains { $0.contains("^ unexpected") } }
        #expect(screen[0].contains("filter price > 900"))

        try tmux.send("q")
        #expect(try await tmux.waitForLastRow(Self.prompt, timeout: .seconds(60)))
        #expect(try await stty(tmux, "after") == before)
    }

    @Test("browse: Ctrl-S saves an edit to the store, Esc discards one; SIGTERM restores the terminal")
    func browseEditing() async throws {
        let store = directory.file("browse.sqlite").path
        try seed(store, rows: 500)
        let tmux = try await shell()
        defer { tmux.shutDown() }
        let before = try await stty(tmux, "before")
        try type(tmux, "clear; \(try quarry()) browse \(store) --entity Ticker --sort symbol")
        var screen = try await waitFor(tmux, "the first screen") { s in s.contains { $0.hasPrefix("A ") } && s.contains { $0.contains("row 1/500") } }
        #expect(screen[0].contains("quarry · browse.sqlite · Ticker · sort symbol ▲"))
        #expect(screen[2].hasPrefix("A "))

        try await editPrice(tmux, "123.45")
        try tmux.send("C-s")
        screen = try await waitFor(tmux, "the saved row") { s in s.contains { $0.contains("saved to disk") } && s[2].contains("123.45") }

        // An edit discarded with Esc never reaches the store.
        try await editPrice(tmux, "999")
        try tmux.send("Escape")
        _ = try await waitFor(tmux, text: "Discard the edits")
        try tmux.send("y")
        _ = try await waitFor(tmux, text: "edits discarded")

        // SIGTERM from outside restores the terminal.
        let shellPID = try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{pane_pid}").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try TmuxHarness.run(["pgrep", "-P", shellPID]).output
        let pid = try #require(children.split(separator: "\n").first.flatMap { Int32($0) })
        kill(pid, SIGTERM)
        #expect(try await tmux.waitForLastRow(Self.prompt, timeout: .seconds(60)))
        #expect(try await stty(tmux, "after") == before)

        let price = try TmuxHarness.run(["sqlite3", store, "SELECT price FROM Ticker WHERE symbol = 'A'"]).output
        #expect(price.trimmingCharacters(in: .whitespacesAndNewlines) == "123.45")
    }

    @Test("browse: a bad --where is reported before the screen opens; --read-only refuses edits")
    func browseErrors() async throws {
        let store = directory.file("ro.sqlite").path
        try seed(store, rows: 50)
        let tmux = try await shell()
        defer { tmux.shutDown() }
        // The marker is split in the typed line, so only the shell's output matches it.
        try type(tmux, "\(try quarry()) browse \(store) --where 'price >> 3'; echo \"ex\"\"it=$?\"")
        let screen = try await waitFor(tmux, text: "exit=")
        #expect(screen.contains { $0.contains("--where: unexpected '>' at column 8") })
        #expect(screen.contains { $0.contains("exit=64") })

        try type(tmux, "clear; \(try quarry()) browse \(store) --read-only --entity Ticker")
        _ = try await waitFor(tmux, text: "read-only")
        try tmux.send("e")
        _ = try await waitFor(tmux, text: "editing is disabled")
        try tmux.send("q")
        #expect(try await tmux.waitForLastRow(Self.prompt, timeout: .seconds(60)))
    }

    @Test("browse: the first screen appears while the full index is still being built; G waits for it")
    func firstScreenBeforeTheFullIndex() async throws {
        let store = directory.file("big.sqlite").path
        try seed(store, rows: 5_000)
        let fifo = directory.file("hold").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let tmux = try await shell()
        defer { tmux.shutDown() }
        // The full index's query is held (at its first progress check) until the pipe is written.
        try type(tmux, "clear; QUARRY_TEST_HOLD_FULL_INDEX=\(fifo) \(try quarry()) browse \(store) --entity Ticker --sort symbol --no-cache")
        var screen = try await waitFor(tmux, "the preview") { s in s.contains { $0.contains("row 1/≥300…") } }
        #expect(screen[2].hasPrefix("A "), "the first rows in order: \(screen[2])")
        try tmux.send("G")
        screen = try await waitFor(tmux, text: "reading every row")
        #expect(screen.contains { $0.contains("row 1/≥300…") }, "G waits for the index")
        // Let the query go on: G then acts on the full index.
        let released = try TmuxHarness.run(["sh", "-c", "echo go > '\(fifo)'"])
        #expect(released.status == 0)
        screen = try await waitFor(tmux, "the last row") { s in Self.rowNumbers(s).map { $0.row == 5_000 && $0.total == 5_000 } ?? false }
        try tmux.send("q")
        #expect(try await tmux.waitForLastRow(Self.prompt, timeout: .seconds(60)))
    }
}
