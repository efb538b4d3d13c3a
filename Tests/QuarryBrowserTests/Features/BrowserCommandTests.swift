import Foundation
import Quarry
import QuarryTestSupport
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Parsing the `:` line, and the prompt history's file.
@Suite struct BrowserCommandTests {
    @Test func commandsParse() throws {
        #expect(try BrowserCommand.parse("1500") == .jump(1500))
        #expect(try BrowserCommand.parse(" q ") == .quit)
        #expect(try BrowserCommand.parse("w out/Ticker.csv") == .write("out/Ticker.csv"))
        #expect(try BrowserCommand.parse("sort price desc, symbol") == .sort([SortKey("price", ascending: false), SortKey("symbol")]))
        #expect(try BrowserCommand.parse("sort -price symbol asc") == .sort([SortKey("price", ascending: false), SortKey("symbol")]))
        #expect(try BrowserCommand.parse("filter price > 10 AND name BEGINSWITH 'a'") == .filter("price > 10 AND name BEGINSWITH 'a'"))
        #expect(try BrowserCommand.parse("filter") == .filter(nil))
        #expect(try BrowserCommand.parse("entity Quote") == .entity("Quote"))
        #expect(try BrowserCommand.parse("theme light") == .theme("light"))
    }

    @Test func errorsNameTheirColumn() {
        #expect(throws: BrowserCommandError("unknown command 'sortt' (a row number, col, entity, filter, follow, freq, q, select, set, since, sort, summary, theme, unselect, w)", column: 1)) {
            try BrowserCommand.parse("sortt price")
        }
        #expect(throws: BrowserCommandError("w needs a file name (w Ticker.csv)", column: 3)) { try BrowserCommand.parse("w") }
        #expect(throws: BrowserCommandError("desc follows a key", column: 6)) { try BrowserCommand.parse("sort desc") }
        #expect(throws: BrowserCommandError("rows are numbered from 1", column: 1)) { try BrowserCommand.parse("0") }
    }

    @MainActor
    @Test func theHistoryFileKeepsTheNewestLinesWithoutRepeats() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("a/b/history")
        let history = PromptHistory(file: file)
        history.add("price > 1")
        history.add("price > 1")
        history.add("  ")
        history.add("sort volume")
        #expect(try String(contentsOf: file, encoding: .utf8) == "price > 1\nsort volume\n")
        for n in 0..<(PromptHistory.limit + 5) { history.add("line \(n)") }
        let reread = PromptHistory(file: file)
        #expect(reread.lines.count == PromptHistory.limit)
        #expect(reread.lines.last == "line \(PromptHistory.limit + 4)")
        #expect(history.lastError == nil)
    }

    @MainActor
    @Test func anUnwritableHistoryOnlyLosesTheHistory() throws {
        let directory = TemporaryDirectory()
        let blocker = directory.file("file")
        try Data("x".utf8).write(to: blocker)
        let history = PromptHistory(file: blocker.appendingPathComponent("history"))
        history.add("price > 1")
        #expect(history.lines == ["price > 1"])
        #expect(history.lastError?.contains("cannot write the prompt history") == true)
    }

    @Test func theDefaultFileFollowsXDGStateHome() {
        #expect(BrowserConfiguration.defaultHistoryFile(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path == "/s/quarry/history")
        #expect(BrowserConfiguration.defaultHistoryFile(environment: ["HOME": "/h"])?.path == "/h/.local/state/quarry/history")
        #expect(BrowserConfiguration.defaultHistoryFile(environment: [:]) == nil)
    }
}
