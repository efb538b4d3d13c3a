import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The table faults its rows in batches of the configured size (RBCoreDataAdditions' table
/// controller's batch size; `quarry browse --batch-size`).
@MainActor
@Suite("Browser: rows are faulted in batches of the configured size")
struct BatchSizeTests {
    /// Every row's object, held (a context keeps unchanged objects only while someone holds
    /// them), in the table's order.
    private func hold(_ f: BrowserFixture) -> [ManagedObject] {
        let context = f.stack.mainContext
        return f.browser.table.controller.snapshot.items.flatMap { $0 }.map { context.object(with: $0) }
    }

    /// How many of `held` are loaded (not faults).
    private func loaded(_ held: [ManagedObject]) -> Int { held.filter { !$0.isFault }.count }

    @Test("the first screen faults whole batches of the configured size, and the request carries it",
          arguments: [7, 50])
    func firstScreen(batchSize: Int) throws {
        // 300 tickers, not sectioned: the first screen shows rows 1 to 37 of a 40-line terminal.
        let f = try BrowserFixture(tickers: 300, sectioned: false, batchSize: batchSize)
        #expect(f.browser.table.controller.fetchRequest.fetchBatchSize == batchSize)
        f.stack.mainContext.reset()
        let held = hold(f)
        #expect(loaded(held) == 0)
        let shownRows = f.screen().filter { $0.hasPrefix("T") }.count
        #expect(shownRows > 7)
        let batches = (shownRows + batchSize - 1) / batchSize
        #expect(loaded(held) == batches * batchSize, "\(shownRows) rows shown in batches of \(batchSize)")
        #expect(held.prefix(batches * batchSize).allSatisfy { !$0.isFault }, "the first batches, whole")
    }

    @Test("going to the last row faults only the last batch (with a batch of 7: the rows shown, rounded to whole batches)")
    func lastRows() throws {
        let f = try BrowserFixture(tickers: 300, sectioned: false, batchSize: 7)
        f.stack.mainContext.reset()
        let held = hold(f)
        f.type("G")
        let shown = f.screen().filter { $0.hasPrefix("T") }
        #expect(shown.last?.hasPrefix("T299") == true)
        // The last rows are shown: batches start at multiples of 7, so from the batch holding
        // the first row shown to the end, and nothing before it.
        let firstShown = 300 - shown.count
        let firstBatchStart = (firstShown / 7) * 7
        #expect(loaded(held) == 300 - firstBatchStart)
        #expect(held[firstBatchStart...].allSatisfy { !$0.isFault })
    }

    @Test("--batch-size below 1 is refused naming the flag")
    func refusesZero() throws {
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first")
        let result = try CommandRunner.run(quarry, ["browse", "/nonexistent.sqlite", "--batch-size", "0"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--batch-size must be at least 1 (got 0)"))
    }
}
