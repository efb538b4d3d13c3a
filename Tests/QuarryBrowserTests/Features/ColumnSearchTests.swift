import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `/` on a column that is not the sort key: the store is asked for the matching rows.
@MainActor
@Suite struct ColumnSearchTests {
    /// A fixture whose names are `Company 0`…, with T07 named `Zeta` and T20 named `zebra`.
    private func fixture() throws -> BrowserFixture {
        try BrowserFixture(sectioned: false, names: { n in n == 7 ? "Zeta" : n == 20 ? "zébra" : "Company \(n)" })
    }

    @Test func searchesTheColumnUnderTheCursorAndNRepeats() throws {
        let f = try fixture()
        f.press(.character("l"))  // the name column
        f.press(.character("/"))
        #expect(f.screen().last?.hasPrefix("/name:") == true)
        f.type("ze")
        f.press(.enter)
        #expect(f.browser.table.cursorRowNumber == 8)  // T07 "Zeta"
        f.press(.character("n"))
        #expect(f.browser.table.cursorRowNumber == 21)  // T20 "zébra": case and accents ignored
        f.press(.character("n"))
        #expect(f.browser.table.cursorRowNumber == 8)  // wraps around
        f.press(.character("N"))
        #expect(f.browser.table.cursorRowNumber == 21)
    }

    @Test func aNumberColumnMatchesTheValueTyped() throws {
        let f = try fixture()
        for _ in 0..<4 { f.press(.character("l")) }
        #expect(f.browser.shownColumns[f.browser.columnView.cursor].title == "price")
        f.press(.character("/"))
        f.type("150")
        f.press(.enter)
        #expect(f.browser.table.cursorRowNumber == 16)  // T15, price 150
    }

    @Test func noMatchLeavesTheCursorWhereItWasAndSaysSo() throws {
        let f = try fixture()
        f.type("jjl/")
        f.type("nothing like it")
        f.press(.enter)
        #expect(f.browser.table.cursorRowNumber == 3)
        #expect(f.screen().last?.contains("no name starts with \"nothing like it\"; the cursor stays") == true)
    }

    @Test func theSearchKeepsToTheFilter() async throws {
        let f = try fixture()
        f.press(.character("f"))
        f.type("price > 100")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type("l/ze")
        f.press(.enter)
        // Zeta (price 70) is filtered out: the match is zébra.
        let id = try #require(f.browser.table.cursorID)
        #expect(try f.stack.mainContext.object(with: id).value(forKey: "symbol") == .string("T20"))
    }
}

/// `/` on the sort key: a text no row starts with leaves the cursor where it was.
@MainActor
@Suite struct SortKeySearchTests {
    @Test func noMatchPutsTheCursorBackAndSaysSo() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("jjj")
        f.press(.character("/"))
        f.type("T2")  // moves to T20 as typed
        #expect(f.browser.table.cursorRowNumber == 21)
        f.type("x")
        f.press(.enter)
        #expect(f.browser.table.cursorRowNumber == 4)
        #expect(f.screen().last?.contains("no match for \"T2x\"; the cursor stays") == true)
    }
}
