import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `y` and `Y`: the cell and the row to the clipboard, through the OSC 52 sequence the backend
/// writes to the terminal.
@MainActor
@Suite struct ClipboardTests {
    private func running(_ f: BrowserFixture) throws -> (BrowserApp, InMemoryTerminal) {
        let terminal = InMemoryTerminal(size: TerminalSize(width: 120, height: 40))
        let app = BrowserApp(browser: f.browser, backend: terminal)
        try app.start()
        return (app, terminal)
    }

    @Test func yCopiesTheCellUnderTheCursor() throws {
        let f = try BrowserFixture(sectioned: false)
        let (app, terminal) = try running(f)
        defer { app.stop() }
        terminal.type("jl")  // T01, the name column
        terminal.type("y")
        let sequence = try #require(terminal.clipboardSequences.last)
        #expect(sequence == "\u{1B}]52;c;" + Data("Company 1".utf8).base64EncodedString() + "\u{07}")
        app.drawFrame()
        #expect(terminal.screen?.lines.last?.contains("copied name (9 characters) to the clipboard") == true)
    }

    @Test func capitalYCopiesTheRowTabSeparated() throws {
        let f = try BrowserFixture(sectioned: false)
        let (app, terminal) = try running(f)
        defer { app.stop() }
        terminal.type("Y")
        let text = try #require(terminal.clipboardSequences.last.flatMap(ClipboardSequence.text(of:)))
        let cells = text.split(separator: "\t", omittingEmptySubsequences: false)
        #expect(cells.count == f.browser.shownColumns.count)
        #expect(cells.prefix(3) == ["T00", "Company 0", "0.00"] || cells.contains("Company 0"))
        #expect(cells.first == "T00")
    }

    @Test func tabsAndLineBreaksInAValueBecomeSpaces() throws {
        let f = try BrowserFixture(sectioned: false, names: { $0 == 0 ? "two\tcells\nand a line" : "n\($0)" })
        let (app, terminal) = try running(f)
        defer { app.stop() }
        terminal.type("ly")
        #expect(terminal.clipboardSequences.last.flatMap(ClipboardSequence.text(of:)) == "two cells and a line")
    }

    @Test func withoutATerminalTheStatusLineSaysSo() throws {
        let f = try BrowserFixture(sectioned: false)
        f.press(.character("y"))
        #expect(f.screen().last?.contains("no terminal to copy through") == true)
    }
}
