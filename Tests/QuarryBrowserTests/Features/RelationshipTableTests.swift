import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Enter on a to-many relationship of a detail page opens all of its objects as a live table.
@MainActor
@Suite struct RelationshipTableTests {
    /// A fixture whose ticker T00 has `quotes` quotes (the others two each).
    private func fixture(quotes: Int) async throws -> BrowserFixture {
        let f = try BrowserFixture(sectioned: false)
        try await f.importerSave { context in
            let ticker = try BrowserFixture.ticker("T00", in: context)
            for q in 0..<quotes {
                let quote = try context.insertObject(entityName: "Quote")
                try quote.setValues(["price": .double(1000 + Double(q)), "time": .date(Date(timeIntervalSince1970: Double(100 + q)))])
                try quote.setObject(ticker, forKey: "ticker")
            }
        }
        return f
    }

    /// Opens T00's detail page and Enter on its quotes.
    private func openQuotes(_ f: BrowserFixture) async throws {
        f.press(.enter)
        guard case .detail(let pages) = f.browser.overlay, let page = pages.last else { throw CancellationError() }
        let row = try #require(page.entries.firstIndex { $0.label.hasPrefix("quotes (") })
        while case .detail(let pages) = f.browser.overlay, pages.last?.selected ?? row < row { f.press(.down) }
        while case .detail(let pages) = f.browser.overlay, (pages.last?.selected ?? row) > row { f.press(.up) }
        f.press(.enter)
        await f.browser.fetchesSettled()
    }

    @Test func everyObjectOfTheRelationshipIsARowAndEscGoesBack() async throws {
        let f = try await fixture(quotes: 250)
        f.press(.enter)
        var screen = f.screen()
        #expect(screen.contains(text: "quotes (252)"))
        #expect(screen.contains(text: "Enter opens all as a table"))
        f.press(.escape)
        try await openQuotes(f)
        #expect(f.browser.table.entity.name == "Quote")
        #expect(f.browser.table.rowCount == 252, "every quote, not the page's 200")
        screen = f.screen()
        #expect(screen[0].contains("quotes of Ticker Company 0 (Esc back)"))
        #expect(screen.last?.contains("row 1/252") == true)
        // Every browser key works here: G, a filter within the relationship, a sort.
        f.press(.character("G"))
        #expect(f.browser.table.cursorRowNumber == 252)
        f.press(.character("f"))
        f.type("price >= 1100")
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.rowCount == 150)
        f.press(.escape)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.entity.name == "Ticker")
        guard case .detail = f.browser.overlay else { Issue.record("the detail page is back"); return }
    }

    @Test func theTableIsLive() async throws {
        let f = try await fixture(quotes: 3)
        try await openQuotes(f)
        #expect(f.browser.table.rowCount == 5)
        try await f.importerSave { context in
            let ticker = try BrowserFixture.ticker("T00", in: context)
            let quote = try context.insertObject(entityName: "Quote")
            try quote.setValues(["price": .double(1), "time": .date(Date())])
            try quote.setObject(ticker, forKey: "ticker")
            let other = try context.insertObject(entityName: "Quote")
            try other.setValues(["price": .double(2), "time": .date(Date())])
            try other.setObject(try BrowserFixture.ticker("T01", in: context), forKey: "ticker")
        }
        #expect(f.browser.table.rowCount == 6, "T00's new quote, not T01's")
    }
}

/// While a form edits a row, that row keeps its values; every other row follows the live merge.
@MainActor
@Suite struct EditedRowTests {
    @Test func theEditedRowPausesAndTheOthersKeepUpdating() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.press(.character("e"))  // T00
        try await f.importerSave { context in
            try BrowserFixture.ticker("T00", in: context).setValue(.string("Renamed 0"), forKey: "name")
            try BrowserFixture.ticker("T01", in: context).setValue(.string("Renamed 1"), forKey: "name")
        }
        var screen = f.screen()
        #expect(screen.contains { $0.hasPrefix("T00") && $0.contains("Company 0") })
        #expect(screen.contains { $0.hasPrefix("T01") && $0.contains("Renamed 1") })
        #expect(screen.contains(text: "another writer saved this Ticker meanwhile"))
        f.press(.escape)
        screen = f.screen()
        #expect(screen.contains { $0.hasPrefix("T00") && $0.contains("Renamed 0") })
    }
}
