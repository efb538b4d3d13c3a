import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Enter on a to-one cell goes to the object it names, in its own entity's table; Backspace
/// and Ctrl-O come back to exactly where the hop started.
@MainActor
@Suite("Browser: Enter on a to-one cell follows it, Backspace comes back")
struct FollowRelationshipTests {
    /// Puts the column cursor on `title` through `:col`.
    func column(_ title: String, in f: BrowserFixture) {
        f.type("c")
        f.type(title)
        f.press(.enter)
    }

    @Test("Enter on a ticker's sector lands on that sector; Backspace restores the table, filter, sort, cursor and column")
    func followAndComeBack() async throws {
        let f = try BrowserFixture()
        // A filter and a sort to come back to: Health and Tech tickers, by price descending.
        f.type("f")
        f.type("price >= 10")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type(":sort price desc")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type("]")
        f.type("2j")
        column("sector", in: f)
        let before = f.screen()
        let statusBefore = before[39]
        let cursorSymbol = try #require(f.browser.table.cursorID)
        let sector = try f.stack.mainContext.object(with: cursorSymbol).object(forKey: "sector")
        guard case .string(let sectorName)? = try sector?.value(forKey: "name") else {
            Issue.record("the ticker has no sector")
            return
        }

        f.press(.enter)
        await f.browser.fetchesSettled()
        var lines = f.screen()
        #expect(lines[0].contains("· Sector ·"), "\(lines[0])")
        #expect(f.browser.table.cursorID == sector?.objectID, "the cursor is on the ticker's sector")
        #expect(lines.contains { $0.hasPrefix(sectorName) })

        f.press(.backspace)
        await f.browser.fetchesSettled()
        lines = f.screen()
        #expect(lines[0].contains("· Ticker ·"))
        #expect(lines[0].contains("filter price >= 10") || lines[39].contains("filter price >= 10"))
        #expect(f.browser.table.query.filter == "price >= 10")
        #expect(f.browser.table.query.userSortDescription.contains("price"))
        #expect(f.browser.table.cursorID == cursorSymbol, "the cursor is back on the ticker")
        #expect(lines[39].contains(statusBefore.components(separatedBy: " · ").prefix(2).joined(separator: " · ")), "\(lines[39]) vs \(statusBefore)")
    }

    @Test("Ctrl-O goes back too; with nothing to go back to it says so; 60 hops come back in reverse order")
    func backStack() async throws {
        let f = try BrowserFixture(tickers: 70, sectioned: false)
        f.press(.control("o"))
        #expect(f.screen()[39].contains("nothing to go back to"))
        column("sector", in: f)
        var left: [ObjectID] = []
        for _ in 0..<60 {
            left.append(try #require(f.browser.table.cursorID))
            f.press(.enter)  // a hop to the sector
            await f.browser.fetchesSettled()
            #expect(f.browser.table.entity.name == "Sector")
            f.type(":entity Ticker")  // not a hop: the ticker table as it was left
            f.press(.enter)
            await f.browser.fetchesSettled()
            f.type("j")
        }
        #expect(f.browser.motions.backStack.count == 60)
        for expected in left.reversed() {
            f.press(.control("o"))
            await f.browser.fetchesSettled()
            #expect(f.browser.table.cursorID == expected)
        }
        #expect(f.browser.motions.backStack.isEmpty)
        f.press(.backspace)
        #expect(f.screen()[39].contains("nothing to go back to"))
    }

    @Test("Backspace after a hop, and a hop back into a table shown before, show it at once (no fetch), with what changed meanwhile")
    func keptTablesComeBackAtOnce() async throws {
        let f = try BrowserFixture(sectioned: false)
        column("sector", in: f)
        let ticker = try #require(f.browser.table.cursorID)
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.screen()[0].contains("· Sector ·"))
        // While the Sector table shows, an importer adds a ticker: the kept Ticker table follows it.
        try await f.importerSave { context in
            let added = try context.insertObject(entityName: "Ticker")
            try added.setValues(["symbol": .string("A0"), "name": .string("Newco")])
        }
        f.press(.backspace)
        #expect(!f.browser.isFetching, "the Ticker table was kept: no fetch")
        let lines = f.screen()
        #expect(lines[0].contains("· Ticker ·"))
        #expect(lines[39].contains("/31"), "the ticker added meanwhile is there: \(lines[39])")
        #expect(f.browser.table.cursorID == ticker)
        f.press(.enter)
        #expect(!f.browser.isFetching, "the Sector table was kept too")
        #expect(f.screen()[0].contains("· Sector ·"))
    }

    /// Saves `count` more sectors `A000`, `A001`, … (sorting before Energy, Health and Tech by
    /// name, the Sector table's order), then `also` in the same save.
    func addSectors(_ count: Int, to f: BrowserFixture,
                    also: @escaping ([ManagedObject], ObjectContext) throws -> Void = { _, _ in }) async throws {
        try await f.importerSave { context in
            let sectors = try (0..<count).map { n in
                let sector = try context.insertObject(entityName: "Sector")
                try sector.setValue(.string(String(format: "A%03d", n)), forKey: "name")
                return sector
            }
            try also(sectors, context)
        }
    }

    @Test("the first hop into a table not shown before puts the cursor on its object at once, at its row of all rows, before the full index")
    func firstHopShowsTheObjectBeforeTheFullIndex() async throws {
        let f = try BrowserFixture()
        try await addSectors(500, to: f)
        column("sector", in: f)
        let ticker = try #require(f.browser.table.cursorID)
        let sector = try #require(try f.stack.mainContext.object(with: ticker).objectID(forKey: "sector"))
        let names = try f.stack.mainContext.fetch(FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name")])).map(\.objectID)
        let row = try #require(names.firstIndex(of: sector)) + 1

        f.press(.enter)
        // No await: the preview is what the next frame shows.
        #expect(!f.browser.table.isComplete, "the full index is still to come")
        #expect(f.browser.table.cursorID == sector)
        var lines = f.screen()
        #expect(lines[0].contains("· Sector ·"))
        #expect(lines[39].contains("row \(row)/503"), "\(lines[39])")
        #expect(lines.contains { $0.hasPrefix("A499") }, "the rows before it show too")

        await f.browser.fullIndexSettled()
        lines = f.screen()
        #expect(f.browser.table.isComplete && f.browser.table.cursorID == sector)
        #expect(lines[39].contains("row \(row)/503"), "\(lines[39])")
        f.type("gg")
        #expect(f.browser.table.cursorRowNumber == 1)
    }

    @Test("gg on a preview around an object waits for the full index, then goes to the first row")
    func topWaitsForTheFullIndex() async throws {
        let f = try BrowserFixture()
        try await addSectors(100, to: f)
        column("sector", in: f)
        f.press(.enter)
        #expect(f.browser.table.previewOffset > 0)
        f.type("gg")
        #expect(f.screen()[39].contains("reading every row"))
        await f.browser.fullIndexSettled()
        #expect(f.browser.table.cursorRowNumber == 1)
        #expect(f.screen().contains { $0.hasPrefix("A000") })
    }

    @Test("a hop back into a table still showing a preview, to an object outside it, opens on that object")
    func hopIntoAKeptPreview() async throws {
        let f = try BrowserFixture()
        // T01 in A000: the table's first row (its sections follow the sector names).
        try await addSectors(500, to: f) { sectors, context in
            try BrowserFixture.ticker("T01", in: context).setObject(sectors[0], forKey: "sector")
        }
        column("sector", in: f)
        f.type("gg")
        f.press(.enter)
        #expect(!f.browser.table.isComplete && f.browser.table.previewOffset == 0, "on A000, the first sector")
        f.press(.backspace)
        f.type("j")
        let ticker = try #require(f.browser.table.cursorID)
        let sector = try #require(try f.stack.mainContext.object(with: ticker).objectID(forKey: "sector"))
        f.press(.enter)
        #expect(f.browser.table.cursorID == sector, "on the ticker's sector, not a detail page")
        #expect(!f.screen().contains { $0.contains("Relationships") })
        await f.browser.fullIndexSettled()
        #expect(f.browser.table.cursorID == sector)
    }
}
