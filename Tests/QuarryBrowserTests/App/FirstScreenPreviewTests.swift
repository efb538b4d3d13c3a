import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The first screen from a query that reads only its rows; the full index after it.
@MainActor
@Suite("Browser: the first screen before the whole index")
struct FirstScreenPreviewTests {
    @Test("the preview shows at once with row 1/≥N…; G waits for the full index, then goes to the last row")
    func previewThenFullIndex() async throws {
        let f = try BrowserFixture(tickers: 300, firstScreenRows: 20)
        // The full index is installed on the main queue, which this test has not yielded yet.
        var lines = f.screen()
        #expect(lines[39].contains("row 1/≥20… · col 1/7 · Energy"), "\(lines[39])")
        #expect(lines[2] == "▸ Energy (20)" && lines[3].hasPrefix("T000"))
        f.type("G")
        lines = f.screen()
        #expect(lines[39].contains("row 1/≥20…") && lines[39].contains("reading every row"), "G waits: \(lines[39])")
        await f.browser.fullIndexSettled()
        lines = f.screen()
        #expect(lines[39].contains("row 300/300"), "G acted once the index was in: \(lines[39])")
        #expect(lines[38].hasPrefix("T299"))
        #expect(!lines[39].contains("reading every row"))
    }

    @Test("a search typed during the preview runs once the full index is in")
    func searchWaitsForTheIndex() async throws {
        let f = try BrowserFixture(tickers: 300, firstScreenRows: 20)
        f.type("/T29")
        #expect(f.screen().joined().contains("searching when the index is complete"))
        await f.browser.fullIndexSettled()
        #expect(!f.screen().joined().contains("no match"))
        f.press(.enter)
        let lines = f.screen()
        #expect(lines[39].contains("/300"), "\(lines[39])")
        let cursor = try #require(f.browser.table.cursorID)
        let symbol = try f.stack.mainContext.existingObject(with: cursor).value(forKey: "symbol")
        #expect(symbol == .string("T291"), "the first T29… row of the full index in the cursor's section (Energy)")
    }

    @Test("the cache name is stable per store and view, and differs when the view does")
    func cacheNames() throws {
        let store = URL(fileURLWithPath: "/tmp/a.sqlite")
        let query = TableQuery(entityName: "Ticker", sort: [SortKey("symbol")], sectionKey: nil, filter: nil)
        var other = query
        other.filter = "price > 1"
        let name = try #require(IndexCacheName.make(store: store, query: query))
        #expect(name == IndexCacheName.make(store: store, query: query))
        #expect(name.hasPrefix("browse-") && name.count == 23)
        #expect(name != IndexCacheName.make(store: store, query: other))
        #expect(name != IndexCacheName.make(store: URL(fileURLWithPath: "/tmp/b.sqlite"), query: query))
        #expect(IndexCacheName.make(store: nil, query: query) == nil)
    }
}
