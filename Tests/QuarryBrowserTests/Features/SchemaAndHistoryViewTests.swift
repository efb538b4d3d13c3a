import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `m`: the entity's model; `H`: the store's history, a transaction's changes, the object.
@MainActor
@Suite struct SchemaAndHistoryViewTests {
    @Test func mShowsTheEntitysModelAsQuarryModelPrintsIt() throws {
        let f = try BrowserFixture()
        f.press(.character("m"))
        let screen = f.screen()
        #expect(screen.contains(text: "Model of Ticker"))
        let expected = ModelDescriptionText(source: "", model: f.stack.model).lines(for: f.browser.table.entity)
        for line in expected.prefix(8) {
            #expect(screen.contains(text: line.trimmingCharacters(in: .whitespaces)), "missing \(line)")
        }
        #expect(screen.contains(text: "-> Sector"))
        #expect(screen.contains(text: "inverse Sector.tickers") || screen.contains(text: "inverse Sector."))
        f.press(.escape)
        #expect(!f.screen().contains(text: "Model of Ticker"))
    }

    @Test func hListsTransactionsNewestFirstThenChangesThenTheObject() async throws {
        let f = try BrowserFixture(sectioned: false)
        try await f.importerSave { context in
            let ticker = try BrowserFixture.ticker("T12", in: context)
            try ticker.setValue(.double(4242), forKey: "price")
        }
        f.press(.character("H"))
        var screen = f.screen()
        #expect(screen.contains(text: "History (newest first)"))
        // The newest (the update) first, then the seeding save.
        let update = try #require(screen.firstIndex { $0.contains("+0 ~1 -0") })
        let seed = try #require(screen.firstIndex { $0.contains("+93 ~0 -0") })
        #expect(update < seed)
        f.press(.enter)
        screen = f.screen()
        #expect(screen.contains(text: "Transaction"))
        #expect(screen.contains(text: "update: price"))
        f.press(.enter)
        screen = f.screen()
        #expect(!screen.contains(text: "Transaction"))
        let id = try #require(f.browser.table.cursorID)
        #expect(try f.stack.mainContext.object(with: id).value(forKey: "symbol") == .string("T12"))
        // Esc on the table comes back to the transaction's changes, which name the object.
        f.press(.escape)
        screen = f.screen()
        #expect(screen.contains(text: "Transaction"))
        #expect(screen.contains { $0.contains("Ticker Company 12") && $0.contains("update: price") }, "named by its display key")
        f.press(.escape)
        #expect(f.screen().contains(text: "History (newest first)"))
    }

    @Test func aChangeOfAnotherEntityShowsThatEntity() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.press(.character("H"))
        f.press(.enter)  // the seeding save: sectors first, by entity order of the changes
        let page = try #require({ if case .text(let pages) = f.browser.overlay { return pages.last } else { return nil } }())
        let quote = try #require(page.entries.firstIndex { $0.label.hasPrefix("Quote ") })
        for _ in 0..<quote { f.press(.down) }
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.entity.name == "Quote")
        #expect(f.browser.table.cursorID != nil)
    }
}
