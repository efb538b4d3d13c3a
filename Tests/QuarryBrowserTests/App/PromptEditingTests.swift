import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: prompt text is edited by grapheme, in O(1) per key, and pastes are text")
struct PromptEditingTests {
    /// The open prompt's state.
    func prompt(_ f: BrowserFixture) throws -> PromptState {
        guard case .prompt(let state) = f.browser.overlay else { throw FixtureError.noPrompt }
        return state
    }

    enum FixtureError: Error { case noPrompt }

    @Test("e then a combining acute is one character é in the filter prompt; Backspace removes it whole")
    func combiningCharacterInPrompt() async throws {
        let f = try BrowserFixture()
        f.type("f")
        f.type("name == 'Cafe")
        f.press(.character("\u{301}"))
        f.type("'")
        #expect(try prompt(f).text.text == "name == 'Café'")
        #expect(f.screen().last?.contains("filter: name == 'Café'") == true)
        f.press(.left)
        f.press(.backspace)
        #expect(try prompt(f).text.text == "name == 'Caf'")
        f.press(.character("\u{301}"))  // joins the f before the caret
        _ = f.screen()
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.filter == "name == 'Caf\u{301}'")
        #expect(f.screen().contains(text: "no rows match the filter"))
    }

    @Test("a combining character typed into a form field joins the letter before it")
    func combiningCharacterInForm() throws {
        let f = try BrowserFixture()
        f.type("e")
        guard case .form(let session) = f.browser.overlay else { Issue.record("no form"); return }
        f.press(.control("u"))
        f.type("e")
        f.press(.character("\u{301}"))
        f.type("x")
        #expect(session.fields[session.focus].text == "éx")
        f.press(.left)
        f.press(.left)
        f.press(.character("\u{301}"))
        f.press(.right)
        f.press(.right)
        f.press(.right)
        f.press(.backspace)
        f.press(.delete)
        _ = f.screen()
        #expect(session.caret <= session.fields[session.focus].text.count)
    }

    @Test("70,000 typed characters and a 70,000-character paste are edited and drawn")
    func longTextStaysCheap() throws {
        let f = try BrowserFixture()
        f.type("f")
        f.press(.control("u"))
        for _ in 0..<70_000 { f.press(.character("a")) }
        _ = f.screen()
        f.browser.handle(.paste(String(repeating: "b", count: 70_000)))
        let state = try prompt(f)
        #expect(state.text.caret == 140_000)
        let last = try #require(f.screen().last)
        #expect(last.hasPrefix("filter: bbbb"))
        f.press(.home)
        #expect(f.screen().last?.hasPrefix("filter: aaaa") == true)
    }

    @Test("a paste is one edit of text: a pasted ESC, q or Enter never runs as a command")
    func pasteIsText() throws {
        let f = try BrowserFixture()
        f.browser.handle(.paste("q\u{1B}"))
        #expect(!f.browser.wantsQuit)
        f.type("f")
        f.press(.control("u"))
        f.browser.handle(.paste("price > 5\u{1B}q\n"))
        #expect(!f.browser.wantsQuit)
        #expect(try prompt(f).text.text == "price > 5\u{1B}q ")
        #expect(f.screen().last?.contains("filter: price > 5^[q") == true)
    }

    @Test("a long filter's error scrolls the prompt so the caret under the column at fault shows")
    func longFilterErrorShowsCaret() throws {
        let f = try BrowserFixture()
        f.type("f")
        f.press(.control("u"))
        let head = (0..<20).map { "price > \($0)" }.joined(separator: " AND ")
        f.type(head + " AND price >> 1")
        f.press(.enter)
        let lines = f.screen(TerminalSize(width: 60, height: 20))
        // The message is whole; the marker, with no room beside it, is on the row below it.
        let errorRow = try #require(lines.first { $0.contains("unexpected") })
        #expect(errorRow.contains("unexpected '>' at column 298, expected a key path or value"))
        let markerRow = lines[lines.count - 2]
        let promptRow = try #require(lines.last)
        let marker = try #require(markerRow.firstIndex(of: "^"))
        let column = markerRow.distance(from: markerRow.startIndex, to: marker)
        // The character under the marker is the second `>` of `>>`.
        let characters = Array(promptRow)
        #expect(column < 60)
        #expect(characters.indices.contains(column) && characters[column] == ">")
        #expect(characters.indices.contains(column - 1) && characters[column - 1] == ">")
    }
}
