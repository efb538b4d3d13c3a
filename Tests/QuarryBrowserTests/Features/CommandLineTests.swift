import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The `:` command line: commands, completion and the history shared with `f` and `/`.
@MainActor
@Suite struct CommandLineTests {
    private func command(_ f: BrowserFixture, _ line: String) {
        f.press(.character(":"))
        f.type(line)
        f.press(.enter)
    }

    @Test func aNumberJumpsToThatRowAcrossSections() throws {
        let f = try BrowserFixture()
        command(f, "15")
        #expect(f.screen().last?.contains("row 15/30") == true)
        command(f, "999")
        #expect(f.browser.table.cursorRowNumber == 30)
    }

    @Test func sortFilterAndEntityRunTheirQueries() async throws {
        let f = try BrowserFixture(sectioned: false)
        command(f, "sort price desc")
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.userSort == [SortKey("price", ascending: false)])
        #expect(f.screen()[2].hasPrefix("T29"))
        command(f, "filter price < 50")
        await f.browser.fetchesSettled()
        #expect(f.browser.table.rowCount == 5)
        command(f, "entity quote")
        await f.browser.fetchesSettled()
        #expect(f.browser.table.entity.name == "Quote")
    }

    @Test func aBadCommandComesBackWithItsErrorUnderItsColumn() throws {
        let f = try BrowserFixture()
        command(f, "sortt price")
        var screen = f.screen()
        #expect(screen.contains(text: "unknown command 'sortt'"))
        #expect(screen.contains(text: ":sortt price"))
        f.press(.escape)
        command(f, "sort nosuchkey")
        screen = f.screen()
        #expect(screen.contains(text: "cannot sort by 'nosuchkey'"))
        f.press(.escape)
        command(f, "filter price >> 2")
        #expect(f.screen().contains(text: "unexpected"))
    }

    @Test func qQuitsAndWExportsTheView() async throws {
        let f = try BrowserFixture(sectioned: false)
        let url = f.directory.file("view.csv")
        command(f, "w \(url.path)")
        await f.browser.exportsSettled()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("symbol,"))
        command(f, "q")
        #expect(f.browser.wantsQuit)
    }

    @Test func tabCompletesCommandsEntitiesAndKeysAndCyclesThroughCandidates() throws {
        let f = try BrowserFixture()
        f.press(.character(":"))
        f.type("ent")
        f.press(.tab)
        #expect(f.screen().last?.hasPrefix(":entity") == true)
        f.type(" Q")
        f.press(.tab)
        #expect(f.screen().last?.hasPrefix(":entity Quote") == true)
        f.press(.control("u"))
        f.type("sort pr")
        f.press(.tab)
        #expect(f.screen().last?.hasPrefix(":sort price") == true)
        // Several candidates: Tab cycles.
        f.press(.control("u"))
        f.type("sort ")
        f.press(.tab)
        let first = try #require(f.screen().last)
        f.press(.tab)
        #expect(f.screen().last != first)
    }

    @Test func theHistoryIsSharedByThePromptsAndKeptBetweenRuns() async throws {
        let directory = TemporaryDirectory()
        let file = directory.file("state/quarry/history")
        do {
            let f = try BrowserFixture(sectioned: false, historyFile: file)
            f.press(.character("f"))
            f.type("price > 100")
            f.press(.enter)
            await f.browser.fetchesSettled()
            command(f, "sort volume")
            await f.browser.fetchesSettled()
            // ↑ in the search prompt brings back the command, then the filter; ↓ the draft.
            f.press(.character(":"))
            f.type("dra")
            f.press(.up)
            #expect(f.screen().last?.hasPrefix(":sort volume") == true)
            f.press(.up)
            #expect(f.screen().last?.hasPrefix(":price > 100") == true)
            f.press(.down)
            f.press(.down)
            #expect(f.screen().last?.hasPrefix(":dra") == true)
            f.press(.escape)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "price > 100\nsort volume\n")
        let again = try BrowserFixture(sectioned: false, historyFile: file)
        again.press(.character("f"))
        again.press(.control("u"))
        again.press(.up)
        #expect(again.screen().last?.hasPrefix("filter: sort volume") == true)
    }
}
