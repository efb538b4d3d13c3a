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

    @Test("the table marks the cells changed since the point (a whole row for an insert) until :since off; x on the list exports it")
    func marksAndExport() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.browser.testHooks.highlightDuration = 0  // no live flash: only the marks
        let token = try #require(try f.stack.historyStore?.currentHistoryToken()).value
        try await f.importerSave { context in
            try BrowserFixture.ticker("T03", in: context).setValue(.double(1), forKey: "price")
            let added = try context.insertObject(entityName: "Ticker")
            try added.setValues(["symbol": .string("A0"), "name": .string("Newco")])
        }
        f.type(":since \(token)")
        f.press(.enter)
        f.type("x")
        let url = f.directory.file("changes.csv")
        #expect(f.answerPrompt(suggesting: "export to: since-\(token).csv", with: url.path))
        #expect(page(f) != nil, "back on the list")
        let csv = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        #expect(csv.first == "change,entity,object,name,keys,token")
        #expect(csv.count == 3, "\(csv)")
        #expect(csv.contains { $0.hasPrefix("updated,Ticker,") && $0.contains(",price,") })
        #expect(csv.contains { $0.hasPrefix("inserted,Ticker,") && $0.contains("Newco") })
        f.press(.escape)

        f.type("j")  // the cursor off the first row (A0)
        let size = TerminalSize(width: 120, height: 40)
        var lines = f.screen(size)
        var buffer = f.browser.render(size: size)
        let flash = f.browser.theme[.updatedFlash]
        let priceX = try #require(lines[1].range(of: "price")).lowerBound.utf16Offset(in: lines[1])
        let inserted = try #require(lines.firstIndex { $0.hasPrefix("A0 ") })
        let updated = try #require(lines.firstIndex { $0.hasPrefix("T03 ") })
        #expect(buffer[0, inserted].style == flash && buffer[priceX, inserted].style == flash, "an inserted row is marked whole")
        #expect(buffer[priceX + 1, updated].style == flash, "T03's price is marked")
        #expect(buffer[0, updated].style != flash, "T03's symbol is not")
        #expect(buffer[priceX + 1, updated + 1].style != flash, "T04 is not")

        f.type(":since off")
        f.press(.enter)
        lines = f.screen(size)
        buffer = f.browser.render(size: size)
        #expect(buffer[priceX + 1, updated].style != flash, "the marks are cleared")
        #expect(lines[39].contains("the :since marks are cleared"))
    }
}
