import Foundation
@testable import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The table's sorted index is kept in the fetched-results cache (RBCoreDataAdditions' cache
/// name): a second browser on an unchanged store builds its table from it, without the query
/// that reads every row's sort keys; without the cache it queries the store.
@MainActor
@Suite("Browser: a second browser on an unchanged store builds its table from the index cache")
struct IndexCacheUseTests {
    @Test("with the cache: the first browser queries and writes it, the second reads it and queries nothing", arguments: [0, 5])
    func secondBrowserReadsTheCache(firstScreenRows: Int) async throws {
        let f = try BrowserFixture(tickers: 40, firstScreenRows: firstScreenRows, usesIndexCache: true)
        await f.browser.fullIndexSettled()
        let first = f.browser.table.controller
        let file = try #require(first.cacheFileURL)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(first.storeFetchCount == 1 && first.cacheHitCount == 0)
        #expect(FileManager.default.fileExists(atPath: file.path), "the first browser wrote \(file.path)")

        let second = try Browser(stack: f.stack, configuration: f.browser.configuration)
        await second.fullIndexSettled()
        let controller = second.table.controller
        #expect(controller.cacheHitCount == 1, "the second browser's index came from the cache")
        #expect(controller.storeFetchCount == 0, "and no query read every row")
        #expect(second.render(size: TerminalSize(width: 120, height: 40)).lines[39].contains("row 1/40"))
    }

    @Test("without the cache: every browser queries the store and no cache file is written")
    func withoutTheCache() async throws {
        let f = try BrowserFixture(tickers: 40, usesIndexCache: false)
        #expect(f.browser.table.controller.cacheName == nil)
        let second = try Browser(stack: f.stack, configuration: f.browser.configuration)
        await second.fullIndexSettled()
        #expect(second.table.controller.cacheHitCount == 0)
        #expect(second.table.controller.storeFetchCount == 1)
    }
}
