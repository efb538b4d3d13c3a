import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Aggregate controller: the background fetch")
struct AggregateBackgroundFetchTests {
    @Test("the groups read off the context's queue are fetchDictionaries' rows, a save made before they land applied, on every back end",
          arguments: StoreKind.allCases)
    func backgroundFetch(kind: StoreKind) async throws {
        let store = TestStore(kind)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        let sectors = try AggregateResultsControllerTests.seed(main, tech: 3, energy: 5)
        let controller = try main.performAndWait { try AggregateResultsController(fetchRequest: try AggregateResultsControllerTests.perSector(), context: main) }
        let (outcomes, outcome) = AsyncStream<Error?>.makeStream()
        // The read's groups are installed on the context's queue, after this block: the three
        // energy tickers moved to tech and saved here are a change made while the store is
        // read (before or after the read saw it), applied once the groups are in place.
        let background = try main.performAndWait { () -> Bool in
            controller.performFetch(cancellation: QueryCancellation()) { outcome.yield($0) }
            guard main.readStore.cancelsQueries else { return false }  // fetched at once
            let tech = try #require(main.object(with: sectors["tech"]!) as? Sector)
            let energy = try main.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("sector.name") == .string("energy")))
            for ticker in energy.prefix(3) { try ticker.setObject(tech, forKey: "sector") }
            try main.save()
            return true
        }
        var iterator = outcomes.makeAsyncIterator()
        let failure = await iterator.next() ?? nil
        #expect(failure.map { "\($0)" } == nil)
        let expected = try main.performAndWait { try main.fetchDictionaries(try AggregateResultsControllerTests.perSector()) }
        main.performAndWait {
            #expect(controller.groups.map(\.values) == expected)
            if background {
                #expect(controller.group(at: 0)["count()"] == .integer(6), "tech: 3 + the 3 moved")
            }
        }
    }

    @Test("a cancelled background fetch leaves the controller unfetched")
    func cancelled() async throws {
        let store = TestStore(.sqlite)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        _ = try AggregateResultsControllerTests.seed(main, tech: 2, energy: 2)
        let controller = try main.performAndWait { try AggregateResultsController(fetchRequest: try AggregateResultsControllerTests.perSector(), context: main) }
        let cancellation = QueryCancellation()
        cancellation.cancel()
        let (outcomes, outcome) = AsyncStream<Error?>.makeStream()
        main.performAndWait { controller.performFetch(cancellation: cancellation) { outcome.yield($0) } }
        var iterator = outcomes.makeAsyncIterator()
        let failure = await iterator.next() ?? nil
        #expect(failure as? QueryCancellationError == .cancelled)
        #expect(main.performAndWait { controller.numberOfGroups } == 0)
    }
}
