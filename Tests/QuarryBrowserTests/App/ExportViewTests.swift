import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `x`: the current view (entity, filter, sort, visible columns) exported to a file.
@MainActor
@Suite struct ExportViewTests {
    /// Filters, hides a column, exports with `x` and returns the fixture and the file's text.
    private func exportView(to name: String) async throws -> (BrowserFixture, String, URL, hidden: String) {
        let fixture = try BrowserFixture(tickers: 30, sectioned: false)
        fixture.press(.character("f"))
        fixture.type("price > 200")
        fixture.press(.enter)
        await fixture.browser.fetchesSettled()
        #expect(fixture.browser.table.rowCount == 9)
        // Hide the first column that is not the symbol.
        let titles = fixture.browser.shownColumns.map(\.title)
        let target = try #require(titles.firstIndex { $0 != "symbol" })
        for _ in 0..<target { fixture.press(.right) }
        fixture.press(.character("-"))
        fixture.press(.character("x"))
        #expect(fixture.screen().last?.contains("export to: Ticker.csv") == true)
        let url = fixture.directory.file(name)
        fixture.press(.control("u"))
        fixture.type(url.path)
        fixture.press(.enter)
        await fixture.browser.exportsSettled()
        return (fixture, try String(contentsOf: url, encoding: .utf8), url, titles[target])
    }

    @Test func theViewGoesToACSVFileWithItsFilterSortAndVisibleColumns() async throws {
        let (fixture, text, url, hidden) = try await exportView(to: "view.csv")
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        let visible = fixture.browser.shownColumns.map(\.title)
        #expect(lines.count == 10)
        #expect(lines[0] == visible.joined(separator: ","))
        #expect(!visible.contains(hidden) && !lines[0].split(separator: ",").contains(Substring(hidden)), "the hidden column is left out")
        // Sorted by symbol, only tickers priced over 200: T21 … T29.
        let symbolColumn = try #require(visible.firstIndex(of: "symbol"))
        #expect(lines.dropFirst().map { $0.split(separator: ",")[symbolColumn] } == (21...29).map { "T\($0)" })
        #expect(fixture.screen().last?.contains("exported 9 rows to \(url.path)") == true)
    }

    @Test func theExtensionChoosesJSONLines() async throws {
        let (_, text, _, _) = try await exportView(to: "view.jsonl")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 9)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.contains("\"symbol\":\"T2") })
    }

    @Test func aMissingFolderIsRefusedInThePromptAndNothingIsWritten() throws {
        let fixture = try BrowserFixture(tickers: 3, sectioned: false)
        fixture.press(.character("x"))
        fixture.press(.control("u"))
        fixture.type(fixture.directory.file("no/such/folder/view.csv").path)
        fixture.press(.enter)
        #expect(fixture.screen().joined().contains("no such folder"))
        #expect(fixture.browser.exports.pending == nil)
    }
}
