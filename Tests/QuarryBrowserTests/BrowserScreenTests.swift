import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: screens, navigation and filters")
struct BrowserScreenTests {
    /// Opens the filter prompt, replaces its text with `text` and presses Enter.
    func filter(_ text: String, in f: BrowserFixture) async {
        f.type("f")
        f.press(.control("u"))
        f.type(text)
        f.press(.enter)
        await f.browser.fetchesSettled()
    }

    @Test("the first screen shows the title, the sorted header, section headers and rows")
    func firstScreen() throws {
        let f = try BrowserFixture()
        let lines = f.screen()
        #expect(lines[0].contains("quarry · browse.sqlite · Ticker · sort sector.name ▲, symbol ▲"))
        #expect(lines[1].hasPrefix("symbol ▲"))
        #expect(lines[1].contains("price") && lines[1].contains("sector"))
        #expect(lines[2] == "▸ Energy (10)")
        #expect(lines[3].hasPrefix("T00"))
        #expect(lines[4].hasPrefix("T03"))
        #expect(lines[13] == "▸ Health (10)")
        #expect(lines[39].contains("row 1/30 · col 1/7 · Energy"))
        // The cursor row is drawn in the cursor style.
        let buffer = f.browser.render(size: TerminalSize(width: 120, height: 40))
        #expect(buffer[0, 3].style == f.browser.theme[.cursor])
        #expect(buffer[0, 4].style != f.browser.theme[.cursor])
    }

    @Test("G goes to the last row, g back to the first, without loading the rows in between")
    func topAndBottom() throws {
        let f = try BrowserFixture(tickers: 300)
        f.type("G")
        let lines = f.screen()
        #expect(lines[39].contains("row 300/300"))
        #expect(lines[38].hasPrefix("T299"))
        #expect(lines[37].hasPrefix("T296"))
        f.type("g")
        #expect(f.screen()[39].contains("row 1/300"))
        // Only the rows shown (in batches of 50) were ever faulted into the main context.
        #expect(f.stack.mainContext.registeredObjects.filter { $0.entity.name == "Ticker" && !$0.isFault }.count <= 150)
    }

    @Test("j/k, page keys and section jumps skip section headers")
    func navigation() throws {
        let f = try BrowserFixture()
        f.press(.down)
        #expect(f.screen()[39].contains("row 2/30"))
        f.type("]")
        #expect(f.screen()[39].contains("row 11/30 · col 1/7 · Health"))
        f.type("k")  // over the Health header back to the last Energy row
        #expect(f.screen()[39].contains("row 10/30 · col 1/7 · Energy"))
        f.press(.pageDown)
        #expect(f.screen()[39].contains("Tech"))
        f.type("[")
        #expect(f.screen()[39].contains("row 21/30"))
    }

    @Test("a filter narrows the rows; a bad filter shows its column and keeps the old filter")
    func filters() async throws {
        let f = try BrowserFixture()
        await filter("price >= 200", in: f)
        var lines = f.screen()
        #expect(lines[0].contains("filter price >= 200"))
        #expect(lines[39].contains("row 1/10"))
        await filter("price >> 3", in: f)
        lines = f.screen()
        // The prompt stays open with the error under the column at fault.
        let errorLine = try #require(lines.line(containing: "^ unexpected"))
        let caretColumn = try #require(errorLine.firstIndex(of: "^")).utf16Offset(in: errorLine)
        #expect(caretColumn == "filter: price >".count)
        #expect(lines[39].hasPrefix("filter: price >> 3"))
        f.press(.escape)
        lines = f.screen()
        #expect(lines[0].contains("filter price >= 200"))
        #expect(lines[39].contains("row 1/10"))
    }

    @Test("an unknown key in a filter is reported with its column")
    func unknownKeyFilter() async throws {
        let f = try BrowserFixture()
        await filter("prize > 3", in: f)
        let lines = f.screen()
        #expect(lines.contains(text: "^ entity 'Ticker' has no property 'prize'"))
    }

    @Test("search jumps to the first match of the sort key; n and N move between matches")
    func search() throws {
        let f = try BrowserFixture()
        f.type("/")
        f.type("t1")
        #expect(f.screen()[39].hasPrefix("/t1"))
        f.press(.enter)
        var lines = f.screen()
        // Energy holds T00, T03, ... T27: the first symbol starting with T1 there is T12.
        #expect(lines[39].contains("row 5/30"))
        f.type("n")
        lines = f.screen()
        #expect(lines[39].contains("row 6/30"))  // T15
        f.type("n")
        f.type("n")
        lines = f.screen()
        #expect(lines[39].contains("Health"))  // T10 in Health comes next
        f.type("N")
        #expect(f.screen()[39].contains("row 7/30"))  // back to T18
    }

    @Test("s and S sort by the column under the column cursor")
    func sortByColumn() async throws {
        let f = try BrowserFixture(sectioned: false)
        for _ in 0..<4 { f.press(.right) }  // symbol, name, active, listed, price
        f.type("S")
        await f.browser.fetchesSettled()
        let lines = f.screen()
        #expect(lines[0].contains("sort price ▼"))
        #expect(lines[1].contains("price ▼"))
        #expect(lines[2].hasPrefix("T29"))
        #expect(lines[39].contains("col 5/7"))
    }

    @Test("columns can be hidden, resized and the first one frozen")
    func columns() throws {
        let f = try BrowserFixture()
        f.press(.right)
        f.type("-")
        var lines = f.screen()
        #expect(!lines[1].contains("name"))
        #expect(lines[39].contains("col 2/6"))
        f.type("=")
        f.type(">>>")
        lines = f.screen()
        #expect(lines[1].contains("name"))
        // Scroll far right: with the first column frozen, symbols stay visible.
        f.type("!")
        for _ in 0..<6 { f.press(.right) }
        let narrow = f.browser.render(size: TerminalSize(width: 50, height: 12)).lines
        #expect(narrow[1].hasPrefix("symbol ▲"))
        #expect(narrow[1].contains("sector"))
        #expect(narrow[3].hasPrefix("T00"))
    }

    @Test("below 40×10 the browser says the terminal is too small; at 40×10 it draws")
    func tinySizes() throws {
        let f = try BrowserFixture()
        let small = f.browser.render(size: TerminalSize(width: 39, height: 10)).lines
        #expect(small[0].hasPrefix("terminal too small"))
        let minimum = f.browser.render(size: TerminalSize(width: 40, height: 10)).lines
        #expect(minimum[2] == "▸ Energy (10)")
        #expect(minimum[9].contains("row 1/30"))
        let tiny = f.browser.render(size: TerminalSize(width: 5, height: 1)).lines
        #expect(tiny[0] == "term…")
    }

    @Test("wide characters are measured in cells and cut with an ellipsis, never mid-character")
    func wideCharacters() throws {
        // 66 cells: wider than a column grows to fit (40).
        let long = "東京電力ホールディングス株式会社🚀東京電力ホールディングス株式会社"
        let f = try BrowserFixture(names: { n in n == 0 ? long : "e\u{301}lan \(n)" })
        let lines = f.screen()
        let row = lines[3]
        // 38 cells and the ellipsis: 電 would straddle the 40th cell.
        #expect(row.contains("東京電力ホールディングス株式会社🚀東京…"))
        // The next column (price) starts where the header says, whatever the name's width.
        let buffer = f.browser.render(size: TerminalSize(width: 120, height: 40))
        let priceHeader = try #require(lines[1].range(of: "price")).lowerBound.utf16Offset(in: lines[1])
        let nameWidth = DisplayWidth.of("東京電力ホールディングス株式会社🚀東京…")
        #expect(nameWidth <= ColumnSpec.maximumFittedWidth)
        #expect(buffer[priceHeader - 1, 3].text == " ")
        #expect(lines[4].contains("élan 3"))
    }

    @Test("the help overlay lists every key")
    func help() throws {
        let f = try BrowserFixture()
        f.type("?")
        var lines = f.screen()
        // The list scrolls: read it to its end.
        for _ in 0..<KeyHelp.entries.count {
            f.press(.down)
            lines += f.screen()
        }
        for binding in KeyHelp.bindings {
            #expect(lines.contains(text: binding.keys), "help is missing \(binding.keys)")
        }
        for key in ["PgUp PgDn", "[ ]", "pause / resume the live merge", "freeze the first column", "quit"] {
            #expect(lines.contains(text: key), "help is missing \(key)")
        }
        f.press(.escape)
        #expect(!f.screen().contains(text: "freeze the first column"), "Esc closes the help")
    }

    @Test("Enter opens the detail view; Enter follows a relationship; Esc goes back")
    func detail() throws {
        let f = try BrowserFixture()
        f.press(.enter)
        var lines = f.screen()
        #expect(lines.contains(text: "Ticker Company 0"))
        #expect(lines.contains(text: "quotes (2)"))
        #expect(lines.contains(text: "Energy ›"))
        // The selection starts on the quotes heading (Enter opens their table); past the two
        // quotes is the sector.
        f.press(.down)
        f.press(.down)
        f.press(.down)
        f.press(.enter)
        lines = f.screen()
        #expect(lines.contains(text: "Sector Energy"))
        #expect(lines.contains(text: "tickers (10)"))
        f.press(.escape)
        #expect(f.screen().contains(text: "Ticker Company 0"))
        f.press(.escape)
        #expect(!f.screen().contains(text: "quotes (2)"))
    }

    @Test("Tab picks another entity")
    func entityPicker() async throws {
        let f = try BrowserFixture()
        f.press(.tab)
        #expect(f.screen().contains(text: "Quote"))
        let names = f.browser.entityNames
        let from = try #require(names.firstIndex(of: "Ticker")), to = try #require(names.firstIndex(of: "Quote"))
        for _ in 0..<((to - from + names.count) % names.count) { f.press(.down) }
        f.press(.enter)
        await f.browser.fetchesSettled()
        let lines = f.screen()
        #expect(lines[0].contains("· Quote ·"))
        #expect(lines[39].contains("row 1/60"))
    }

    @Test("a start message (a malformed theme replaced by the default) shows on the status line as an error")
    func startMessage() throws {
        let f = try BrowserFixture()
        let problem = ThemeLoader.resolve(name: "/nonexistent/broken.toml", environment: [:], searchDirectories: []).problem
        let text = try #require(problem).description
        let browser = try Browser(stack: f.stack, configuration: BrowserConfiguration(
            storeTitle: "t", entityName: "Ticker", sort: [SortKey("symbol")], startMessage: "theme: \(text)"))
        let buffer = browser.render(size: TerminalSize(width: 160, height: 20))
        let status = buffer.line(19)
        #expect(status.contains("theme: ") && status.contains("broken.toml"))
        let x = try #require(status.range(of: "theme: ")).lowerBound.utf16Offset(in: status)
        #expect(buffer[x, 19].style == browser.theme[.error])
        #expect(browser.theme == .builtInDefault)
    }
}
