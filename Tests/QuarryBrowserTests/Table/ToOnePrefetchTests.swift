import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Every to-one relationship is a column, so the table's request prefetches them: a batch of
/// rows reads its sectors in one query, not one query per sector as each row is drawn (the
/// first screen of a million tickers spent a third of its drawing on those).
@MainActor
@Suite("Browser: a batch of rows reads its to-one columns' destinations at once")
struct ToOnePrefetchTests {
    @Test("the table's request prefetches every to-one relationship, and the sector column shows them")
    func prefetchesToOnes() throws {
        let f = try BrowserFixture(tickers: 6, sectioned: false)
        #expect(f.browser.table.controller.fetchRequest.relationshipKeyPathsForPrefetching == ["sector"])
        let screen = f.screen()
        #expect(screen.contains { $0.contains("T00") && $0.contains("Energy") })
        #expect(screen.contains { $0.contains("T02") && $0.contains("Tech") })
    }
}
