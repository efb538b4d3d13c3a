import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The summary line (`%`, `:summary`) on the in-memory screen: under the table and under each
/// section header, live from an importer's saves, respecting the filter.
@MainActor
@Suite("Browser: the summary line")
struct SummaryLineTests {
    @Test("% shows count, sum, mean, min and max of each numeric column under the table, distinct counts of others; % hides it")
    func totalsUnderTheTable() async throws {
        let f = try BrowserFixture(tickers: 60, sectioned: false)
        f.type("%")
        #expect(f.screen()[38].hasPrefix("Σ computing…"), "read off the main queue: the line says so until it lands")
        await f.browser.summarySettled()
        var screen = f.screen()
        let total = screen[38]
        #expect(total.hasPrefix("Σ n=60 distinct=60"), "\(total)")
        #expect(total.contains("n=60 sum=17700 avg=295 min=0 max=590"), "prices 0, 10, …, 590: \(total)")
        #expect(screen[39].contains("row 1/60"), "\(screen[39])")
        // The rows stop above it: the last row shown is on line 37.
        f.type("G")
        screen = f.screen()
        #expect(screen[38].hasPrefix("Σ "), "\(screen[38])")
        #expect(screen[37].hasPrefix("T59"), "\(screen[37])")
        f.type("%")
        screen = f.screen()
        #expect(!screen.contains(text: "Σ n="))
    }

    @Test("the summary follows an importer's saves and the filter")
    func liveAndFiltered() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type(":summary")
        f.press(.enter)
        await f.browser.summarySettled()
        try await f.importerSave { context in
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("NEW"), "price": .double(1000), "volume": .integer(5)])
        }
        var total = f.screen()[38]
        #expect(total.hasPrefix("Σ n=31 distinct=31"), "\(total)")
        #expect(total.contains("n=31 sum=5350 avg=172.58 min=0 max=1000"), "\(total)")
        f.type(":filter price >= 100")
        f.press(.enter)
        await f.browser.fetchesSettled()
        _ = f.screen()  // the filter changed: the summary is made again
        await f.browser.summarySettled()
        total = f.screen()[38]
        #expect(total.hasPrefix("Σ n=21 distinct=21"), "\(total)")
        #expect(total.contains("min=100"), "\(total)")
    }

    @Test("in a sectioned table each header has its summary under it; the cursor passes over both")
    func underEachSection() async throws {
        let f = try BrowserFixture()
        f.type("%")
        await f.browser.summarySettled()
        let screen = f.screen()
        let header = try #require(screen.firstIndex { $0.hasPrefix("▸ Energy (10)") })
        #expect(screen[header + 1].hasPrefix("Σ n=10 distinct=10"), "\(screen[header + 1])")
        #expect(screen[header + 1].contains("sum=1350"), "Energy's prices 0, 30, …, 270: \(screen[header + 1])")
        #expect(screen[header + 2].hasPrefix("T00"), "\(screen[header + 2])")
        // From Energy's last row, j goes to Health's first, over its header and summary.
        f.type("9j")
        #expect(f.browser.table.cursorPath == RowPath(section: 0, row: 9))
        f.type("j")
        #expect(f.browser.table.cursorPath == RowPath(section: 1, row: 0))
        f.type("k")
        #expect(f.browser.table.cursorPath == RowPath(section: 0, row: 9))
        #expect(f.screen()[39].contains("row 10/30"))
    }
}
