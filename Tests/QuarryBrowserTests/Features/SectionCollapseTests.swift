import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `za`, `zM`, `zR` and Enter on a collapsed header.
@MainActor
@Suite struct SectionCollapseTests {
    @Test func zaCollapsesTheCursorsSectionAndEnterExpandsIt() throws {
        let f = try BrowserFixture()
        f.type("za")
        var screen = f.screen()
        #expect(screen[2] .hasPrefix("▸ Energy (10) · collapsed"))
        #expect(screen[3].hasPrefix("▸ Health (10)"))
        #expect(screen[4].hasPrefix("T01"))
        // The cursor rests on the collapsed header; j goes to the next section's first row.
        #expect(f.browser.table.cursorPath == nil)
        f.press(.character("j"))
        #expect(f.browser.table.cursorID.map { try? f.stack.mainContext.object(with: $0).value(forKey: "symbol") } == .string("T01"))
        f.press(.character("k"))
        f.press(.enter)
        screen = f.screen()
        #expect(screen[3].hasPrefix("T00"))
        #expect(!screen[2].contains("collapsed"))
    }

    @Test func zMCollapsesEverySectionAndZRExpandsThem() throws {
        let f = try BrowserFixture()
        f.type("zM")
        var screen = f.screen()
        #expect(screen[2].hasPrefix("▸ Energy (10) · collapsed"))
        #expect(screen[3].hasPrefix("▸ Health (10) · collapsed"))
        #expect(screen[4].hasPrefix("▸ Tech (10) · collapsed"))
        #expect(!screen[5].contains("T"))
        f.type("zR")
        screen = f.screen()
        #expect(screen[3].hasPrefix("T00"))
    }

    @Test func rowsOfACollapsedSectionAreNotFaultedInAndItsCountStaysLive() async throws {
        let f = try BrowserFixture()
        f.type("zM")
        // The visible window holds section headers only: no row is faulted in to draw them.
        let lines = f.browser.table.window(height: f.browser.table.pageHeight, columns: f.browser.shownColumns).lines(now: 0)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { if case .section = $0 { true } else { false } })
        try await f.importerSave { context in
            let sector = try context.fetch(FetchRequest(entityName: "Sector", predicate: PredicateKey("name") == .string("Health"))).first!
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("T99"), "name": .string("New"), "price": .double(1), "volume": .integer(1)])
            try ticker.setObject(sector, forKey: "sector")
        }
        #expect(f.screen()[3].hasPrefix("▸ Health (11) · collapsed"))
    }

    @Test func aSearchIntoACollapsedSectionExpandsIt() async throws {
        let f = try BrowserFixture()
        f.press(.character("j"))
        f.press(.character("j"))
        f.type("zM")
        f.press(.character("/"))
        f.type("T05")
        f.press(.enter)
        let screen = f.screen()
        #expect(screen.contains { $0.hasPrefix("T05") })
        #expect(f.screen().last?.contains("row 22/30") == true)  // Tech's second row (T02, T05, …)
    }

    @Test func zOnAnUnsectionedTableSaysSo() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("za")
        #expect(f.screen().last?.contains("no sections") == true)
        f.type("zq")
        #expect(f.screen().last?.contains("zq does nothing") == true)
    }
}
