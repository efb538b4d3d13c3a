import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `:since TOKEN` and `:since 10m`: what changed since a history point, from persistent
/// history, live as more changes arrive.
@MainActor
@Suite("Browser: :since lists what changed since a history point, live")
struct SinceViewTests {
    /// The `:since` page showing, if one is.
    func page(_ f: BrowserFixture) -> ListPage? {
        if case .text(let pages) = f.browser.overlay { return pages.last } else { return nil }
    }

    @Test(":since TOKEN lists inserts, updates with their keys and deletes after it, and follows new saves")
    func sinceAToken() async throws {
        let f = try BrowserFixture(sectioned: false)
        let token = try #require(try f.stack.historyStore?.currentHistoryToken()).value
        try await f.importerSave { context in
            try BrowserFixture.ticker("T03", in: context).setValue(.double(1), forKey: "price")
            try BrowserFixture.ticker("T04", in: context).setValue(.integer(7), forKey: "volume")
            let added = try context.insertObject(entityName: "Ticker")
            try added.setValues(["symbol": .string("NEW"), "name": .string("Newco")])
        }
        f.type(":since \(token)")
        f.press(.enter)
        var shown = try #require(page(f))
        #expect(shown.title == "Since \(token): 1 inserted · 2 updated · 0 deleted", "\(shown.title)")
        var lines = f.screen()
        #expect(lines.contains { $0.contains("Ticker Company 3") && $0.contains("updated: price") })
        #expect(lines.contains { $0.contains("Ticker Company 4") && $0.contains("updated: volume") })
        #expect(lines.contains { $0.contains("Ticker Newco") && $0.contains("inserted") })

        // Live: a delete arriving while the page is open shows at once.
        try await f.importerSave { context in context.delete(try BrowserFixture.ticker("T05", in: context)) }
        shown = try #require(page(f))
        #expect(shown.title.hasSuffix("1 inserted · 3 updated · 3 deleted"), "the ticker, its two quotes (cascade), and its sector (its tickers): \(shown.title)")
        lines = f.screen()
        #expect(lines.contains { $0.contains("Ticker ") && $0.contains("deleted") })
        f.press(.escape)
        #expect(page(f) == nil)
    }

    @Test(":since 10m counts the seeding save; a bad argument and a pruned point are refused with a message")
    func sinceATimeAgoAndRefusals() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type(":since 10m")
        f.press(.enter)
        let shown = try #require(page(f))
        #expect(shown.title == "Since 10m: 93 inserted · 0 updated · 0 deleted", "\(shown.title)")
        f.press(.escape)

        f.type(":since soon")
        f.press(.enter)
        #expect(f.screen().contains { $0.contains("since takes a history token (1234) or a time ago") })
        f.press(.escape)

        let store = try #require(f.stack.historyStore)
        let current = try #require(try store.currentHistoryToken())
        _ = try store.deleteHistory(before: HistoryToken(current.value + 1))
        f.type(":since 0")
        f.press(.enter)
        #expect(f.screen().contains { $0.contains("the history kept starts after 0") })
    }

    @Test("a time ago is read in seconds, minutes, hours and days")
    func durations() {
        #expect(Browser.secondsAgo("90s") == 90)
        #expect(Browser.secondsAgo("10m") == 600)
        #expect(Browser.secondsAgo("2h") == 7200)
        #expect(Browser.secondsAgo("1d") == 86_400)
        #expect(Browser.secondsAgo("10") == nil)
        #expect(Browser.secondsAgo("x") == nil)
    }
}
