import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Each entity keeps its view: Tab to another entity and back restores sort, filter,
/// sections, hidden columns and cursor.
@MainActor
@Suite struct EntityViewTests {
    private func pick(_ f: BrowserFixture, _ name: String) async {
        f.press(.tab)
        let names = f.browser.entityNames
        let current = names.firstIndex(of: f.browser.table.entity.name) ?? 0
        let target = names.firstIndex(of: name) ?? 0
        for _ in 0..<((target - current + names.count) % names.count) { f.press(.down) }
        f.press(.enter)
        await f.browser.fetchesSettled()
    }

    @Test func switchingAwayAndBackRestoresTheView() async throws {
        let f = try BrowserFixture()
        f.press(.character("f"))
        f.type("price > 50")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type("jjj")
        f.press(.character("l"))
        f.press(.character("-"))  // hide name
        f.type("zM")
        let before = f.browser.currentEntityView
        await pick(f, "Quote")
        #expect(f.browser.table.entity.name == "Quote")
        #expect(f.browser.table.query.filter == nil)
        await pick(f, "Ticker")
        let after = f.browser.currentEntityView
        #expect(after.query == before.query)
        #expect(after.query.filter == "price > 50")
        #expect(after.collapsedSections == before.collapsedSections)
        #expect(f.browser.shownColumns.map(\.title) == before.columns.filter { !$0.isHidden }.map(\.title))
        #expect(!f.browser.shownColumns.contains { $0.title == "name" })
        #expect(f.screen().last?.contains("showing Ticker as you left it") == true)
        f.type("zR")
        #expect(after.cursorID == before.cursorID || f.browser.table.cursorID != nil)
    }

    @Test func theCursorComesBackToItsObject() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("jjjjj")
        let id = f.browser.table.cursorID
        await pick(f, "Sector")
        await pick(f, "Ticker")
        #expect(f.browser.table.cursorID == id)
        #expect(f.browser.table.cursorRowNumber == 6)
    }
}
