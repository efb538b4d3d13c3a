import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: no query hangs the browser")
struct BackgroundQueryTests {
    /// A browser on 3,000 tickers (enough rows for SQLite's progress checks) filtered to
    /// `price >= 29000`, whose next queries are held open by `gate`.
    func fixture(gate: QueryGate) async throws -> BrowserFixture {
        let f = try BrowserFixture(tickers: 3000, sectioned: false)
        try apply("price >= 29000", f)
        await f.browser.fetchesSettled()
        #expect(f.screen()[39].contains("row 1/100"))
        f.browser.testHooks.makeCancellation = { QueryCancellation { _ in gate.hold() } }
        return f
    }

    /// The fixture, with `filter` started and held open by the returned gate.
    func holding(_ filter: String) async throws -> (QueryGate, BrowserFixture) {
        let gate = QueryGate()
        let f = try await fixture(gate: gate)
        try apply(filter, f)
        await gate.waitUntilStarted()
        return (gate, f)
    }

    func apply(_ filter: String, _ f: BrowserFixture) throws {
        f.type("f")
        f.press(.control("u"))
        f.type(filter)
        f.press(.enter)
    }

    @Test("a slow filter says filtering…, the table still moves, Esc cancels it and the old filter stays")
    func escapeCancelsASlowFilter() async throws {
        let (gate, f) = try await holding("price >= 100")
        var lines = f.screen()
        #expect(lines[39].contains("filtering… (Esc cancels)"))
        f.press(.down)
        #expect(f.screen()[39].contains("row 2/100"))
        f.press(.escape)
        gate.release()
        await f.browser.fetchesSettled()
        lines = f.screen()
        #expect(lines[0].contains("filter price >= 29000"))
        #expect(lines[39].contains("filter cancelled; the old filter stays"))
        #expect(f.browser.rowCount == 100)
        #expect(!f.browser.wantsQuit)
    }

    @Test("Enter typed while a filter runs opens a row of the filtered table once it lands, never the old table's row")
    func enterTypedAheadActsOnTheNewRows() async throws {
        let (gate, f) = try await holding("price == 29950")
        f.press(.enter)
        var lines = f.screen()
        #expect(!lines.contains(text: "Ticker Company"), "the old table's row stays closed")
        #expect(lines[39].contains("filtering… (the key acts on the new rows; Esc cancels both)"))
        gate.release()
        await f.browser.fetchesSettled()
        lines = f.screen()
        #expect(lines.contains(text: "Ticker Company 2995"))
        #expect(!lines.contains(text: "Ticker Company 2900"))
        #expect(lines[39].contains("1 row matches"))
    }

    @Test("a filter cancelled with keys waiting for it drops them, and says so")
    func cancellingDropsTheWaitingKeys() async throws {
        let (gate, f) = try await holding("price == 29950")
        f.type("e")
        f.press(.escape)
        gate.release()
        await f.browser.fetchesSettled()
        let lines = f.screen()
        #expect(lines[39].contains("filter cancelled; the old filter stays (the key typed meanwhile dropped)"))
        #expect(!lines.contains(text: "Edit Ticker"))
        #expect(f.browser.rowCount == 100)
    }

    @Test("Ctrl-C cancels a running sort instead of quitting; q quits while a query runs")
    func ctrlCCancelsAndQQuits() async throws {
        let gate = QueryGate()
        let f = try await fixture(gate: gate)
        f.type("S")
        await gate.waitUntilStarted()
        #expect(f.screen()[39].contains("sorting… (Esc cancels)"))
        f.browser.handle(.terminate(signal: SIGINT))
        #expect(!f.browser.wantsQuit)
        gate.release()
        await f.browser.fetchesSettled()
        #expect(f.screen()[39].contains("sort cancelled"))

        let second = QueryGate()
        f.browser.testHooks.makeCancellation = { QueryCancellation { _ in second.hold() } }
        try apply("price >= 5", f)
        await second.waitUntilStarted()
        f.type("q")
        #expect(f.browser.wantsQuit)
        #expect(f.browser.fetches.pending?.cancellation.isCancelled == true)
        second.release()
        await f.browser.fetchesSettled()
    }

    @Test("SIGTERM quits while a query runs")
    func sigtermQuitsDuringAQuery() async throws {
        let (gate, f) = try await holding("price >= 5")
        f.browser.handle(.terminate(signal: SIGTERM))
        #expect(f.browser.wantsQuit)
        #expect(f.browser.quitSignal == SIGTERM)
        gate.release()
        await f.browser.fetchesSettled()
    }
}

@MainActor
@Suite("Browser: the --where filter runs off the main queue")
struct InitialFilterTests {
    @Test("a browser opened with a filter draws at once, says filtering…, then shows the filtered rows")
    func initialFilterIsFetchedInTheBackground() async throws {
        let f = try BrowserFixture(sectioned: false)
        let browser = try Browser(stack: f.stack, configuration: BrowserConfiguration(
            storeTitle: "t", entityName: "Ticker", sort: [SortKey("symbol")], filter: "price >= 200"))
        let size = TerminalSize(width: 120, height: 20)
        // The store query was handed to a background queue; its results land on the main queue.
        #expect(browser.isFetching)
        #expect(browser.render(size: size).line(19).contains("filtering… (Esc cancels)"))
        await browser.fetchesSettled()
        let lines = browser.render(size: size).lines
        #expect(lines[0].contains("filter price >= 200"))
        #expect(lines[19].contains("row 1/10"))
    }
}
