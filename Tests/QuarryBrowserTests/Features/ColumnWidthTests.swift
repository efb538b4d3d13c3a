import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Column widths fitted to the visible rows; `<`/`>` override; numbers cut on their left.
@MainActor
@Suite struct ColumnWidthTests {
    @Test func widthsFitTheVisibleRowsAndTheLastColumnTakesTheRest() throws {
        let f = try BrowserFixture(sectioned: false, names: { "N\($0)" })
        let screen = f.screen()
        let header = screen[1]
        // symbol ▲ (8 cells) is wider than T00; name fits "name" (4).
        #expect(header.hasPrefix("symbol ▲ name "))
        let columns = f.browser.shownColumns
        #expect(columns.first { $0.title == "name" }?.width == 4)
        #expect(columns.first { $0.title == "price" }?.width == 6)  // "270.00"
    }

    @Test func widthsOnlyGrowWhileScrollingAndAngleBracketsFixThem() throws {
        let f = try BrowserFixture(tickers: 150, sectioned: false, names: { $0 == 120 ? "A much longer company name" : "N\($0)" })
        _ = f.screen()
        let narrow = try #require(f.browser.shownColumns.first { $0.title == "name" }?.width)
        f.press(.end)
        _ = f.screen()
        let wide = try #require(f.browser.shownColumns.first { $0.title == "name" }?.width)
        #expect(wide == "A much longer company name".count)
        f.press(.home)
        _ = f.screen()
        #expect(f.browser.shownColumns.first { $0.title == "name" }?.width == wide)
        #expect(narrow < wide)
        f.press(.character("l"))
        f.press(.character("<"))
        _ = f.screen()
        #expect(f.browser.shownColumns.first { $0.title == "name" }?.width == wide - 2)
    }

    @Test func aNumberTooWideIsCutOnItsLeft() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 20, height: 3), style: .plain)
        let view = TableView(columns: [TableColumn(title: "p", width: 6, alignment: .trailing)],
                             lines: [.row(cells: ["1953.25"], highlight: [])])
        view.render(into: &buffer, rect: Rect(x: 0, y: 0, width: 20, height: 3), theme: .builtInDefault)
        #expect(buffer.lines[1].hasPrefix("…53.25"))
    }
}
