import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: live merges move rows under a fixed cursor")
struct BrowserLiveTests {
    @Test("rows inserted and moved above the cursor leave it on the same object and screen row")
    func cursorStaysOnItsObject() async throws {
        let f = try BrowserFixture(tickers: 120)
        for _ in 0..<4 { f.press(.down) }  // T012, the 5th Energy row
        var lines = f.screen()
        #expect(lines[7].hasPrefix("T012"))
        #expect(lines[39].contains("row 5/120"))
        try await f.importerSave { context in
            let energy = try context.fetch(FetchRequest(entityName: "Sector", predicate: PredicateKey("name") == .string("Energy")))[0]
            for symbol in ["A1", "A2"] {
                let ticker = try context.insertObject(entityName: "Ticker")
                try ticker.setValue(.string(symbol), forKey: "symbol")
                try ticker.setObject(energy, forKey: "sector")
            }
            // T117 (after the cursor) moves before it by its sort key; T018 moves just after it.
            try BrowserFixture.ticker("T117", in: context).setValue(.string("B0"), forKey: "symbol")
            try BrowserFixture.ticker("T018", in: context).setValue(.string("T0125"), forKey: "symbol")
        }
        lines = f.screen()
        #expect(lines[39].contains("row 8/122"))
        // Same object, same screen row: the rows above scrolled away instead.
        #expect(lines[7].hasPrefix("T012 "))
        #expect(lines[8].hasPrefix("T0125"))
        #expect(lines[2].hasPrefix("B0 "))  // the header, A1 and A2 scrolled off the top
        let buffer = f.browser.render(size: TerminalSize(width: 120, height: 40))
        #expect(buffer[0, 7].style == f.browser.theme[.cursor])
        // A moved row is highlighted for a moment.
        #expect(buffer[0, 8].style == f.browser.theme[.updatedFlash])
        f.type("g")
        #expect(f.screen()[3].hasPrefix("A1"))
    }

    @Test("an updated visible row is refreshed and highlighted; unrelated rows are not")
    func updatesRefreshVisibleRows() async throws {
        let f = try BrowserFixture()
        #expect(f.screen()[4].contains("30.00"))
        try await f.importerSave { context in
            try BrowserFixture.ticker("T03", in: context).setValue(.double(33.5), forKey: "price")
        }
        let buffer = f.browser.render(size: TerminalSize(width: 120, height: 40))
        #expect(buffer.line(4).contains("33.50"))
        #expect(buffer[0, 4].style == f.browser.theme[.updatedFlash])
        #expect(buffer[0, 5].style != f.browser.theme[.updatedFlash])
        #expect(f.browser.nextHighlightExpiry() != nil)
    }

    @Test("a batch larger than the highlight limit highlights the rows on screen only; a smaller one every row it changed")
    func largeBatchesHighlightTheScreen() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.browser.table.flashEveryRowLimit = 10
        let small = TerminalSize(width: 120, height: 20)
        _ = f.screen(small)
        let onScreen = f.browser.table.pageHeight
        #expect(onScreen < 25)
        try await f.importerSave { context in
            for i in 0..<25 { try BrowserFixture.ticker(String(format: "T%02d", i), in: context).setValue(.double(1), forKey: "price") }
        }
        #expect(f.browser.table.flashes.count == onScreen, "the page's rows only: \(f.browser.table.flashes.count) of 25 (page \(onScreen))")
        _ = f.screen(small)
        let buffer = f.browser.render(size: small)
        #expect(buffer[0, 3].style == f.browser.theme[.updatedFlash], "a changed row on screen still flashes")
        f.browser.table.flashes = [:]
        try await f.importerSave { context in
            for i in 25..<28 { try BrowserFixture.ticker(String(format: "T%02d", i), in: context).setValue(.double(1), forKey: "price") }
        }
        #expect(f.browser.table.flashes.count == 3, "a small batch highlights every row it changed, on screen or not")
    }

    @Test("a new section appears with its header and an emptied section disappears")
    func sectionInsertAndDelete() async throws {
        let f = try BrowserFixture()
        try await f.importerSave { context in
            let sector = try context.insertObject(entityName: "Sector")
            try sector.setValue(.string("Banks"), forKey: "name")
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValue(.string("BNK"), forKey: "symbol")
            try ticker.setObject(sector, forKey: "sector")
        }
        var lines = f.screen()
        #expect(lines[2] == "▸ Banks (1)")
        #expect(lines[3].hasPrefix("BNK"))
        // The cursor stayed on T00, now one section further down.
        #expect(lines[39].contains("row 2/31 · col 1/7 · Energy"))
        try await f.importerSave { context in
            let health = try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.name == 'Health'")))
            for ticker in health { context.delete(ticker) }
        }
        lines = f.screen()
        #expect(!lines.contains(text: "▸ Health"))
        #expect(lines.contains(text: "▸ Tech (10)"))
        #expect(lines[39].contains("/21"))
    }

    @Test("the cursor's own row deleted by the importer leaves the cursor on a neighbour")
    func cursorRowDeleted() async throws {
        let f = try BrowserFixture()
        f.press(.down)
        try await f.importerSave { context in context.delete(try BrowserFixture.ticker("T03", in: context)) }
        let lines = f.screen()
        #expect(lines[39].contains("row 2/29"))
        #expect(lines[4].hasPrefix("T06"))
    }

    @Test("pausing the live merge stops updates; resuming catches up")
    func pauseAndResume() async throws {
        let f = try BrowserFixture()
        f.type("p")
        #expect(f.screen()[39].contains("paused"))
        let importer = f.stack.importerContext()
        try importer.performAndWait {
            try BrowserFixture.ticker("T03", in: importer).setValue(.double(77), forKey: "price")
            try importer.save()
        }
        // Let the main queue run anything the save scheduled; nothing must be merged.
        await Task.yield()
        #expect(f.screen()[4].contains("30.00"))
        f.type("p")
        await f.browser.fetchesSettled()
        #expect(f.screen()[4].contains("77.00"))
    }

    @Test("the app loop draws once at start and schedules nothing while idle")
    func idleLoopDoesNothing() throws {
        let f = try BrowserFixture()
        let terminal = InMemoryTerminal(size: TerminalSize(width: 100, height: 30))
        let app = BrowserApp(browser: f.browser, backend: terminal)
        try app.start()
        #expect(terminal.frames.count == 1)
        #expect(!app.hasScheduledWork)
        #expect(terminal.screen?.lines[2] == "▸ Energy (10)")
        terminal.resize(to: TerminalSize(width: 60, height: 12))
        #expect(terminal.frames.count == 2)
        #expect(terminal.screen?.size == TerminalSize(width: 60, height: 12))
        var quit = false
        app.onQuit = { quit = true }
        terminal.type("q")
        #expect(quit && !terminal.isRunning)
    }

    @Test("SIGTERM quits at once; SIGINT with unsaved edits asks first")
    func signals() throws {
        let f = try BrowserFixture()
        f.type("e")
        f.press(.end)
        f.type("X")
        f.browser.handle(.terminate(signal: SIGINT))
        #expect(!f.browser.wantsQuit)
        #expect(f.screen().contains(text: "Quit and discard the unsaved edits?"))
        f.type("y")
        #expect(f.browser.wantsQuit)
        let g = try BrowserFixture()
        g.browser.handle(.terminate(signal: SIGTERM))
        #expect(g.browser.wantsQuit)
    }
}
