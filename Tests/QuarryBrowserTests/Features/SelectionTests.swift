import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Selecting rows (`v`, `V`, `:select`), marking them in the gutter, counting them, and acting
/// on them: delete (undoable as one change), copy.
@MainActor
@Suite("Browser: v and V select rows; d deletes them, u brings them back")
struct SelectionTests {
    @Test("v selects three rows, marked and counted; d asks, deletes all three from the table and the store; u brings them back")
    func selectDeleteUndo() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("3v")
        var lines = f.screen()
        #expect(lines[2].hasPrefix("* T00"), "\(lines[2])")
        #expect(lines[3].hasPrefix("* T01"))
        #expect(lines[4].hasPrefix("* T02"))
        #expect(lines[5].hasPrefix("  T03"))
        #expect(lines[39].contains("3 selected"), "\(lines[39])")
        f.type("d")
        lines = f.screen()
        #expect(lines.contains { $0.contains("Delete the 3 selected Ticker objects and 6 related (delete rules)? (y/n)") })
        f.type("y")
        lines = f.screen()
        #expect(lines[39].contains("deleted 9 objects; saved to disk"), "\(lines[39])")
        #expect(!lines.contains { $0.contains("T00") || $0.contains("T01") || $0.contains("T02") })
        for symbol in ["T00", "T01", "T02"] { #expect(try f.storedValue(of: symbol, key: "symbol") == nil) }
        #expect(!lines[1].hasPrefix("* "), "the gutter goes with the selection")
        f.type("u")
        lines = f.screen()
        #expect(lines[39].contains("undid the delete of 3 Ticker objects and 6 related"), "\(lines[39])")
        for symbol in ["T00", "T01", "T02"] { #expect(try f.storedValue(of: symbol, key: "symbol") == .string(symbol)) }
        #expect(lines.contains { $0.hasPrefix("T00") })
    }

    @Test("V selects the rows matching a predicate within the filter; a bad predicate is refused at its column; Esc clears")
    func selectMatching() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("f")
        f.type("price < 100")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type("V")
        f.type("volume >= 500")
        f.press(.enter)
        #expect(f.browser.table.selection.count == 5, "T05…T09: under the filter and matching")
        #expect(f.screen()[39].contains("5 selected"))
        f.type(":select price >>> 1")
        f.press(.enter)
        let lines = f.screen()
        #expect(lines.contains { $0.contains(":select price >>> 1") }, "the line stays open with its error")
        f.press(.escape)
        f.press(.escape)
        #expect(f.browser.table.selection.isEmpty)
        #expect(f.screen()[39].contains("unselected 5"))
    }

    @Test("with rows selected, a click lands on the column drawn under it (the gutter left out), and a click on the gutter picks no column")
    func clicksBesideTheGutter() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("v")
        let screen = f.screen()
        #expect(screen[1].hasPrefix("  symbol"), "the header moves right with the gutter: \(screen[1])")
        let priceX = try #require(screen[1].range(of: "price")).lowerBound.utf16Offset(in: screen[1])
        f.browser.handle(.mouse(MouseEvent(.press, x: priceX, y: 2 + 5)))
        #expect(f.browser.shownColumns[f.browser.columnView.cursor].title == "price")
        #expect(f.browser.table.cursorRowNumber == 6)
        // The separator just left of price belongs to the column before it, as drawn.
        let titles = f.browser.shownColumns.map(\.title)
        let before = titles[try #require(titles.firstIndex(of: "price")) - 1]
        f.browser.handle(.mouse(MouseEvent(.press, x: priceX - 1, y: 2 + 5)))
        #expect(f.browser.shownColumns[f.browser.columnView.cursor].title == before)
        f.browser.handle(.mouse(MouseEvent(.press, x: priceX, y: 2 + 5)))
        f.browser.handle(.mouse(MouseEvent(.press, x: 0, y: 2 + 2)))
        #expect(f.browser.shownColumns[f.browser.columnView.cursor].title == "price", "the gutter picks no column")
        #expect(f.browser.table.cursorRowNumber == 3, "the click still moves the cursor to its row")
    }

    @Test("y and Y copy the selected cells and rows, one per line")
    func copySelection() throws {
        let f = try BrowserFixture(sectioned: false)
        var copied: [String] = []
        f.browser.copyToClipboard = { copied.append($0) }
        f.type("2v")
        f.type("y")
        #expect(copied.last == "T00\nT01")
        f.type("Y")
        #expect(copied.last?.split(separator: "\n").count == 2)
        #expect(copied.last?.hasPrefix("T00\t") == true)
    }

    @Test("E opens :set for the column under the cursor; the selected rows get the expression's value in one save; u undoes it")
    func setColumnOfSelection() throws {
        let f = try BrowserFixture(sectioned: false)
        let before = try ["T00", "T01", "T02"].map { try f.storedValue(of: $0, key: "price") }
        f.type("2v")
        f.type(":col price")
        f.press(.enter)
        f.type("E")
        #expect(f.screen().contains(text: ":set price ="))
        f.type("price * 2 + 1")
        f.press(.enter)
        #expect(f.screen()[39].contains("set price of 2 Ticker objects; saved to disk (u undoes)"), "\(f.screen()[39])")
        for (symbol, old) in zip(["T00", "T01"], before) {
            guard case .double(let price)? = old else { Issue.record("\(symbol) has no price"); continue }
            #expect(try f.storedValue(of: symbol, key: "price") == .double(price * 2 + 1))
        }
        #expect(try f.storedValue(of: "T02", key: "price") == before[2], "not selected: unchanged")
        f.type("u")
        #expect(f.screen()[39].contains("undid the set of price of 2 Ticker objects"), "\(f.screen()[39])")
        for (symbol, old) in zip(["T00", "T01"], before) { #expect(try f.storedValue(of: symbol, key: "price") == old) }
    }

    @Test(":set without a selection sets the cursor's row; a value a rule refuses and a bad expression change nothing, each said at its column")
    func setRefusals() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("j")
        f.type(":set name = 'Renamed', volume = volume + 1")
        f.press(.enter)
        #expect(try f.storedValue(of: "T01", key: "name") == .string("Renamed"))
        #expect(try f.storedValue(of: "T00", key: "name") != .string("Renamed"))

        f.type(":set symbol = lowercase(symbol)")
        f.press(.enter)
        var lines = f.screen()
        #expect(lines.contains(text: ":set symbol = lowercase(symbol)"), "the line stays open with its error")
        #expect(lines.contains(text: "nothing set: 'Ticker.symbol'"), "\(lines.suffix(3))")
        #expect(try f.storedValue(of: "T01", key: "symbol") == .string("T01"))
        f.press(.escape)

        f.type(":set price = 'cheap'")
        f.press(.enter)
        lines = f.screen()
        #expect(lines.contains(text: "cannot set 'Ticker.price' to 'cheap'"), "\(lines.suffix(3))")
        f.press(.escape)
        f.type(":set nosuchkey = 1")
        f.press(.enter)
        #expect(f.screen().contains(text: "'Ticker.nosuchkey' is not an attribute"))
    }

    @Test("x with rows selected exports only those rows, in the table's order")
    func exportSelection() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("j2v")
        f.type("x")
        let url = f.directory.file("picked.csv")
        #expect(f.answerPrompt(suggesting: "export to: Ticker-selected.csv", with: url.path))
        await f.browser.exportsSettled()
        #expect(f.screen()[39].contains("exported 2 rows"), "\(f.screen()[39])")
        let lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.count == 3, "the header and the two selected rows: \(lines)")
        #expect(lines.dropFirst().map { $0.prefix(3) } == ["T01", "T02"])
    }
}
