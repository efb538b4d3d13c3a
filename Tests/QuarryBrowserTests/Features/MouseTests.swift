import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Clicks and the wheel, as the backend delivers them (SGR reports parsed into ``MouseEvent``).
@MainActor
@Suite struct MouseTests {
    @Test func aClickOnARowMovesTheCursorAndTheColumnCursorThere() throws {
        let f = try BrowserFixture(sectioned: false)
        let screen = f.screen()
        let priceX = try #require(screen[1].range(of: "price")).lowerBound.utf16Offset(in: screen[1])
        f.browser.handle(.mouse(MouseEvent(.press, x: priceX, y: 2 + 5)))
        #expect(f.browser.table.cursorRowNumber == 6)
        #expect(f.browser.shownColumns[f.browser.columnView.cursor].title == "price")
        #expect(f.screen().last?.contains("row 6/30") == true)
    }

    @Test func theLastColumnTakesTheRestOfTheLineForClicksToo() throws {
        let f = try BrowserFixture(sectioned: false)
        _ = f.screen()
        f.browser.handle(.mouse(MouseEvent(.press, x: 118, y: 4)))
        #expect(f.browser.table.cursorRowNumber == 3)
        #expect(f.browser.columnView.cursor == f.browser.shownColumns.count - 1)
    }

    @Test func aClickOnAHeaderSortsByItAndAgainReverses() async throws {
        let f = try BrowserFixture(sectioned: false)
        var screen = f.screen()
        let volumeX = try #require(screen[1].range(of: "volume")).lowerBound.utf16Offset(in: screen[1])
        f.browser.handle(.mouse(MouseEvent(.press, x: volumeX, y: 1)))
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.userSort.first == SortKey("volume", ascending: true))
        f.browser.handle(.mouse(MouseEvent(.press, x: volumeX, y: 1)))
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.userSort.first?.ascending == false)
        screen = f.screen()
        #expect(screen[1].contains("volume ▼"))
        #expect(screen[2].hasPrefix("T29"))
    }

    @Test func theWheelScrollsThreeRowsAndAClickOnASectionHeaderCollapsesIt() throws {
        let f = try BrowserFixture()
        f.browser.handle(.mouse(MouseEvent(.wheelDown, x: 5, y: 10)))
        #expect(f.browser.table.cursorRowNumber == 4)
        f.browser.handle(.mouse(MouseEvent(.wheelUp, x: 5, y: 10)))
        #expect(f.browser.table.cursorRowNumber == 1)
        // Line 2 is the Energy header.
        #expect(f.screen()[2].hasPrefix("▸ Energy (10)"))
        f.browser.handle(.mouse(MouseEvent(.press, x: 3, y: 2)))
        let screen = f.screen()
        #expect(screen[2].hasPrefix("▸ Energy (10) · collapsed"))
        #expect(screen[3].hasPrefix("▸ Health (10)"))
        f.browser.handle(.mouse(MouseEvent(.press, x: 3, y: 2)))
        #expect(f.screen()[3].hasPrefix("T00"))
    }

    @Test func releasesAndClicksOverAFormDoNothing() throws {
        let f = try BrowserFixture()
        f.browser.handle(.mouse(MouseEvent(.release, x: 3, y: 8)))
        #expect(f.browser.table.cursorRowNumber == 1)
        f.press(.character("e"))
        f.browser.handle(.mouse(MouseEvent(.press, x: 3, y: 8)))
        #expect(f.browser.hasPendingEdits == false)
        #expect(f.screen().contains(text: "Edit Ticker"))
    }

    @Test func theAppPassesTheBackendsMouseReportsToTheBrowser() throws {
        let f = try BrowserFixture(sectioned: false)
        let terminal = InMemoryTerminal(size: TerminalSize(width: 120, height: 40))
        let app = BrowserApp(browser: f.browser, backend: terminal)
        try app.start()
        terminal.mouse(.press, x: 1, y: 4)
        app.drawFrame()
        #expect(terminal.screen?.lines.last?.contains("row 3/30") == true)
        app.stop()
    }
}
