import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing

/// Issue 22 in a real terminal: the mouse (SGR reports typed with `send-keys -l`), collapsible
/// sections, the `:` line and its history file, search on any column, copy through OSC 52
/// (tmux keeps it as a buffer with `set-clipboard on`), the schema and history views, and each
/// entity's view kept across `Tab`.
@Suite("End to end in tmux: browser features", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct BrowserFeaturesEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// A shell running `quarry browse` on a new demo store of `rows` tickers, its prompt history
    /// kept under this test's directory, showing its first screen.
    func browsing(rows: Int = 300, arguments: String = "--entity Ticker --sort symbol") async throws -> (TmuxHarness, String) {
        let path = directory.file("features.sqlite").path
        try e2e.seed(path, rows: rows)
        let tmux = try await e2e.shell()
        try tmux.tmux("set-option", "-s", "set-clipboard", "on")
        try e2e.type(tmux, "clear; XDG_STATE_HOME=\(directory.file("state").path) \(try e2e.quarry()) browse \(path) \(arguments); echo \"ex\"\"it=$?\"")
        _ = try await e2e.waitFor(tmux, text: "row 1/\(rows)")
        return (tmux, path)
    }

    /// Types a mouse report as the terminal would send it.
    func mouse(_ tmux: TmuxHarness, _ action: MouseEvent.Action, x: Int, y: Int) throws {
        try tmux.tmux("send-keys", "-t", tmux.session, "-l", SGRMouse.report(MouseEvent(action, x: x, y: y)))
    }

    /// Whether the pane's program asked for mouse reports.
    func mouseReporting(_ tmux: TmuxHarness) throws -> Bool {
        try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{mouse_any_flag}").output.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    @Test("mouse: a click moves the cursor, a click on a header sorts (again reverses), the wheel scrolls; reporting is off after q")
    func mouse() async throws {
        let (tmux, _) = try await browsing()
        defer { tmux.shutDown() }
        #expect(try mouseReporting(tmux))
        try mouse(tmux, .press, x: 2, y: 6)
        try mouse(tmux, .release, x: 2, y: 6)
        _ = try await e2e.waitFor(tmux, text: "row 5/300")
        try mouse(tmux, .wheelDown, x: 2, y: 10)
        _ = try await e2e.waitFor(tmux, text: "row 8/300")
        // Where the header shows price now (widths follow the rows shown, so it may move).
        func priceX() throws -> Int {
            let header = try tmux.screen()[1]
            return try #require(header.range(of: "price")).lowerBound.utf16Offset(in: header)
        }
        try mouse(tmux, .press, x: try priceX(), y: 1)
        _ = try await e2e.waitFor(tmux, text: "price ▲")
        try mouse(tmux, .press, x: try priceX(), y: 1)
        _ = try await e2e.waitFor(tmux, text: "price ▼")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
        #expect(try !mouseReporting(tmux))
    }

    @Test("--no-mouse leaves the mouse to the terminal")
    func noMouse() async throws {
        let (tmux, _) = try await browsing(arguments: "--entity Ticker --sort symbol --no-mouse")
        defer { tmux.shutDown() }
        #expect(try !mouseReporting(tmux))
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("sections collapse with za and a click, zM and zR; the :line jumps, sorts and keeps its history in a file")
    func sectionsAndCommandLine() async throws {
        let (tmux, _) = try await browsing(arguments: "--entity Ticker --section sector.name --sort symbol")
        defer { tmux.shutDown() }
        try tmux.send("z", "a")
        // The header changes before the rows under it are redrawn (tmux may capture the pane
        // between the two writes), so the wait is for the whole collapsed frame.
        var screen = try await e2e.waitFor(tmux, "the first section collapsed, the next header under it") { lines in
            guard let n = lines.firstIndex(where: { $0.contains("· collapsed") }), n + 1 < lines.count else { return false }
            return lines[n + 1].hasPrefix("▸ ")
        }
        let collapsed = try #require(screen.firstIndex { $0.contains("· collapsed") })
        #expect(screen[collapsed + 1].hasPrefix("▸ "))
        try mouse(tmux, .press, x: 2, y: collapsed)
        _ = try await e2e.waitFor(tmux, "the section expanded") { !$0.contains { $0.contains("· collapsed") } }
        try tmux.send("z", "M")
        screen = try await e2e.waitFor(tmux, "every section collapsed") { $0.filter { $0.contains("· collapsed") }.count >= 3 }
        try tmux.send("z", "R")
        _ = try await e2e.waitFor(tmux, "every section expanded") { !$0.contains { $0.contains("· collapsed") } }

        try e2e.type(tmux, ":150")
        _ = try await e2e.waitFor(tmux, text: "row 150/300")
        try e2e.type(tmux, ":sort pri", enter: false)
        try tmux.send("Tab")
        _ = try await e2e.waitFor(tmux, text: ":sort price")
        try e2e.type(tmux, " desc")
        _ = try await e2e.waitFor(tmux, text: "price ▼")
        try tmux.send(":")
        try tmux.send("Up")
        _ = try await e2e.waitFor(tmux, text: ":sort price desc")
        try tmux.send("Escape")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
        let history = try String(contentsOfFile: directory.file("state/quarry/history").path, encoding: .utf8)
        #expect(history == "150\nsort price desc\n")
    }

    @Test("/ searches the column under the cursor; y and Y copy through OSC 52")
    func searchAndCopy() async throws {
        let (tmux, path) = try await browsing()
        defer { tmux.shutDown() }
        // The name of row 200, read from the store, searched in the name column.
        let name = try TmuxHarness.run(["sqlite3", path, "SELECT name FROM Ticker ORDER BY symbol LIMIT 1 OFFSET 199"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try tmux.send("l")
        try tmux.send("/")
        _ = try await e2e.waitFor(tmux, text: "/name:")
        try e2e.type(tmux, name)
        let screen = try await e2e.waitFor(tmux, "the match") { s in TerminalEndToEndTests.rowNumbers(s).map { $0.row > 1 } ?? false }
        let row = try #require(TerminalEndToEndTests.rowNumbers(screen)).row
        try tmux.send("y")
        _ = try await e2e.waitFor(tmux, text: "copied name")
        #expect(try tmux.tmux("show-buffer").output == name)
        try tmux.send("Y")
        _ = try await e2e.waitFor(tmux, text: "copied the row")
        let copied = try tmux.tmux("show-buffer").output
        #expect(copied.split(separator: "\t").count >= 4)
        #expect(copied.contains(name))
        #expect(row <= 200)
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("m shows the model; H the history, its changes and the object; Tab and back restores the entity's view")
    func schemaHistoryAndViews() async throws {
        let (tmux, path) = try await browsing(rows: 100)
        defer { tmux.shutDown() }
        try tmux.send("m")
        _ = try await e2e.waitFor(tmux, text: "Model of Ticker")
        _ = try await e2e.waitFor(tmux, text: "-> Sector")
        try tmux.send("Escape")
        try tmux.send("H")
        _ = try await e2e.waitFor(tmux, text: "History (newest first)")
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, text: "Transaction")
        try tmux.send("Escape")
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the views closed") { !$0.contains { $0.contains("History") } }
        // A filter and a cursor on Ticker, then Sector, then back.
        try tmux.send("f")
        try e2e.type(tmux, "price > 10")
        _ = try await e2e.waitFor(tmux, text: "filter price > 10")
        try tmux.send("j", "j", "j")
        let before = try await e2e.waitFor(tmux, "the cursor on row 4") { TerminalEndToEndTests.rowNumbers($0)?.row == 4 }
        try tmux.send("Tab")
        _ = try await e2e.waitFor(tmux, text: "Entity")
        try tmux.send("Up")  // letters narrow the picker; arrows choose
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, "another entity") { !$0[0].contains("Ticker") }
        try tmux.send("Tab")
        _ = try await e2e.waitFor(tmux, text: "type to narrow")
        try e2e.type(tmux, "tick", enter: false)
        _ = try await e2e.waitFor(tmux, text: "Entity: tick")
        try tmux.send("Enter")
        let after = try await e2e.waitFor(tmux, text: "as you left it")
        #expect(after[0].contains("filter price > 10"))
        #expect(TerminalEndToEndTests.rowNumbers(after)?.row == TerminalEndToEndTests.rowNumbers(before)?.row)
        _ = path
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("a to-many relationship opens as a table with every key, Esc goes back; a to-one field is set with its picker")
    func relationshipTableAndPicker() async throws {
        let (tmux, path) = try await browsing(rows: 200)
        defer { tmux.shutDown() }
        let energy = try TmuxHarness.run(["sqlite3", path, "SELECT count(*) FROM Ticker t JOIN Sector s ON t.sector = s.Z_PK WHERE s.name = 'Energy'"])
        try e2e.type(tmux, ":entity Sector")
        _ = try await e2e.waitFor(tmux, "the sectors") { $0[0].contains("Sector") }
        try e2e.type(tmux, ":filter name == 'Energy'")
        // Exactly one row: "row 1/1" alone would also match the unfiltered "row 1/11".
        _ = try await e2e.waitFor(tmux, "the one sector") { TerminalEndToEndTests.rowNumbers($0)?.total == 1 }
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, text: "Enter opens all as a table")
        try tmux.send("Enter")
        // The title and the status line together: a capture can catch the terminal between
        // the new title and the old status line ("row 1/1" of the one sector).
        let count = energy.status == 0 ? Int(energy.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        var screen = try await e2e.waitFor(tmux, "the sector's tickers, every one counted") { s in
            s.contains { $0.contains("tickers of Sector Energy (Esc back)") } && (count == nil || TerminalEndToEndTests.rowNumbers(s)?.total == count)
        }
        try tmux.send("G")
        screen = try await e2e.waitFor(tmux, "the last ticker") { s in TerminalEndToEndTests.rowNumbers(s).map { $0.row == $0.total } ?? false }

        // The edit form's sector field: Enter opens the picker, typing narrows, Enter sets it.
        try tmux.send("e")
        _ = try await e2e.waitFor(tmux, text: "Edit Ticker")
        try tmux.send("BTab")  // from the first field back to the last: sector
        try tmux.send("Enter")
        _ = try await e2e.waitFor(tmux, text: "type to narrow")
        try tmux.send("C-u")
        try e2e.type(tmux, "utilit", enter: false)
        _ = try await e2e.waitFor(tmux, "the narrowed list") { s in s.contains { $0.contains("Sector: utilit") } && s.contains { $0.contains("│ Utilities") } }
        try tmux.send("Enter")
        try tmux.send("C-s")
        _ = try await e2e.waitFor(tmux, text: "saved to disk")
        // The ticker left Energy: the relationship's table follows live.
        screen = try await e2e.waitFor(tmux, "one ticker fewer") { s in TerminalEndToEndTests.rowNumbers(s).map { count == nil || $0.total == count! - 1 } ?? false }
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the detail page again") { s in s.contains { $0.contains("Enter opens all as a table") } }
        try tmux.send("Escape")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("live updates pause only for the row being edited: it keeps its values, the others change, the form says so")
    func editedRowPausesAlone() async throws {
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        let store = directory.file("live.sqlite").path
        try e2e.type(tmux, "clear; \(try e2e.quarry()) demo --store \(store) --rows 40 --rate 4000; echo \"ex\"\"it=$?\"")
        var screen = try await e2e.waitFor(tmux, "the first screen") { s in s.contains { $0.hasPrefix("▸ ") } && TerminalEndToEndTests.rowNumbers(s) != nil }
        let cursorLine = try #require(screen.firstIndex { !$0.hasPrefix("▸ ") && $0 != screen[0] && $0 != screen[1] && !$0.isEmpty })
        try tmux.send("e")
        screen = try await e2e.waitFor(tmux, text: "Edit Ticker")
        let frozen = screen[cursorLine]
        let others = screen[(cursorLine + 1)..<(cursorLine + 6)].joined(separator: "\n")
        // Values, not layout: the columns may widen as other rows change.
        func cells(_ line: String) -> [Substring] { line.split(separator: " ") }
        screen = try await e2e.waitFor(tmux, text: "another writer saved this Ticker meanwhile")
        #expect(cells(screen[cursorLine]) == cells(frozen), "the edited row keeps its values")
        _ = try await e2e.waitFor(tmux, "the other rows to change") { s in
            s[(cursorLine + 1)..<(cursorLine + 6)].map(cells) != others.split(separator: "\n").map { cells(String($0)) }
        }
        #expect(cells(try tmux.screen()[cursorLine]) == cells(frozen))
        try tmux.send("Escape")
        _ = try await e2e.waitFor(tmux, "the row to follow the merge again") { s in
            !s.contains { $0.contains("Edit Ticker") } && cells(s[cursorLine]) != cells(frozen)
        }
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }

    @Test("columns fit their content; < narrows one, and a number too wide is cut on its left")
    func fittedColumns() async throws {
        let (tmux, _) = try await browsing()
        defer { tmux.shutDown() }
        var screen = try tmux.screen()
        // The price column is as wide as its widest visible value (`999.99` at most: 6 cells).
        let header = screen[1]
        let priceX = try #require(header.range(of: "price")).lowerBound.utf16Offset(in: header)
        let volumeX = try #require(header.range(of: "saveNumber")).lowerBound.utf16Offset(in: header)
        #expect(volumeX - priceX - 1 <= 6)
        try tmux.send("l", "l", "l")
        _ = try await e2e.waitFor(tmux, text: "col 4/")
        try tmux.send("<", "<")
        screen = try await e2e.waitFor(tmux, "the narrowed price column") { s in
            s[2...6].contains { line in
                let characters = Array(line)
                return characters.count > priceX && characters[priceX] == "…"
            }
        }
        #expect(!screen[1].isEmpty)
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }
}
