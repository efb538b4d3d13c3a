import Dispatch
import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// ``FetchedResultsController/performFetch(cancellation:completion:)``: the query off the
/// context's queue, cancellable, and installed with the changes made meanwhile.
@Suite("Fetched-results controller: background, cancellable fetch")
struct BackgroundFetchTests {
    static let request = FetchRequest(entityName: "Ticker", predicate: try! ObjectPredicate(format: "price >= 2"),
                                      sortDescriptors: [SortKey("sector.name"), SortKey("symbol")])

    /// A store (SQLite unless `kind` says) with `count` tickers in three sectors, and a context
    /// over it.
    func seeded(_ count: Int = 2000, kind: StoreKind = .sqlite) throws -> (TestStore, ObjectContext) {
        let store = TestStore(kind)
        let context = try store.context("browse")
        try context.performAndWait {
            let sectors = try ["tech", "energy", "health"].map { name in
                let sector = try context.insert(Sector.self)
                sector.name = name
                return sector
            }
            for i in 0..<count {
                let t = try context.insert(Ticker.self)
                t.symbol = String(format: "T%05d", i)
                t.price = Double(i % 10)
                t.sector = sectors[i % 3]
            }
            try context.save()
        }
        return (store, context)
    }

    /// Starts a background fetch on the context's queue and waits for its completion.
    func fetch(_ controller: FetchedResultsController, _ cancellation: QueryCancellation) async throws -> Error? {
        try await withDeadline(defaultEventDeadline, awaiting: "the background fetch's completion") {
            await withCheckedContinuation { (done: CheckedContinuation<Error?, Never>) in
                controller.context.perform {
                    controller.performFetch(cancellation: cancellation) { done.resume(returning: $0) }
                }
            }
        }
    }

    @Test("a background fetch installs exactly what performFetch does")
    func sameResultsAsPerformFetch() async throws {
        let (_, context) = try seeded()
        let background = try context.performAndWait { try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name") }
        #expect(try await fetch(background, QueryCancellation()) == nil)
        let expected = try context.performAndWait { () -> ResultsSnapshot in
            let controller = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            return controller.snapshot
        }
        #expect(context.performAndWait { background.snapshot } == expected)
        #expect(context.performAndWait { background.count } == 1600)
    }

    @Test("a fetch cancelled while its query runs ends with .cancelled and leaves the results as they were")
    func cancelWhileQueryRuns() async throws {
        let (_, context) = try seeded()
        let controller = try context.performAndWait { () -> FetchedResultsController in
            let controller = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            return controller
        }
        let before = context.performAndWait { controller.snapshot }
        let gate = QueryGate()
        let cancellation = QueryCancellation { _ in gate.hold() }
        async let outcome = fetch(controller, cancellation)
        await gate.waitUntilStarted()
        cancellation.cancel()
        gate.release()
        let error = try await outcome
        #expect(error as? QueryCancellationError == .cancelled)
        #expect(context.performAndWait { controller.snapshot } == before)
    }

    @Test("on PostgreSQL, a fetch cancelled while its query runs on the server ends with .cancelled and leaves the results as they were",
          .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
    func cancelWhilePostgreSQLQueryRuns() async throws {
        let (_, context) = try seeded(30, kind: .postgreSQL)
        let controller = try context.performAndWait { () -> FetchedResultsController in
            let controller = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            return controller
        }
        let before = context.performAndWait { controller.snapshot }
        let store = try #require(context.coordinator.store as? TemporaryPostgreSQLStore).base
        // The fetch's query first sleeps on the server until cancelled: a slow query, no timing.
        let marker = "fetch_" + UUID().uuidString
        let sender = PostgreSQLActivity.Sender()
        store.pool.beforeCancellableQuery.withLock { hook in
            hook = { connection in
                sender.sending()
                _ = try connection.query(PostgreSQLActivity.endlessSleep(marker: marker))
            }
        }
        let cancellation = QueryCancellation()
        let (outcome, finished) = AsyncStream<Error?>.makeStream()
        context.performAndWait {
            controller.performFetch(cancellation: cancellation) { error in
                sender.ended()
                finished.yield(error)
            }
        }
        let waited = await PostgreSQLActivity.onThread { try PostgreSQLActivity.blockUntilRunning(marker: marker, sentBy: sender) }
        // Cancelled even when the wait failed: the fetch must end before the test does.
        cancellation.cancel()
        var outcomes = outcome.makeAsyncIterator()
        let error = await outcomes.next() ?? nil
        store.pool.beforeCancellableQuery.withLock { $0 = nil }
        _ = try waited.get()
        #expect(error as? QueryCancellationError == .cancelled)
        #expect(context.performAndWait { controller.snapshot } == before)
        #expect(try await fetch(controller, QueryCancellation()) == nil)
        #expect(context.performAndWait { controller.count } == 24)
    }

    @Test("a token cancelled before the fetch starts never queries")
    func cancelledBeforeStart() async throws {
        let (_, context) = try seeded(10)
        let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: Self.request, context: context) }
        let cancellation = QueryCancellation()
        cancellation.cancel()
        #expect(try await fetch(controller, cancellation) as? QueryCancellationError == .cancelled)
        #expect(context.performAndWait { controller.storeFetchCount } == 0)
    }

    @Test("a change saved while the query runs is in the installed results")
    func changesDuringTheQueryAreApplied() async throws {
        let (_, context) = try seeded()
        let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name") }
        let gate = QueryGate()
        let cancellation = QueryCancellation { _ in
            gate.hold {
                // The query's read transaction already started: this save is not in its snapshot.
                try? context.performAndWait {
                    let t = try context.insert(Ticker.self)
                    t.symbol = "ZZZ"
                    t.price = 9
                    try context.save()
                }
            }
        }
        async let outcome = fetch(controller, cancellation)
        await gate.waitUntilStarted()
        gate.release()
        #expect(try await outcome == nil)
        let ids = context.performAndWait { controller.snapshot.items.flatMap { $0 } }
        #expect(ids.count == 1601)
        let symbols = try context.performAndWait { try ids.map { try context.existingObject(with: $0).value(forKey: "symbol") } }
        #expect(symbols.contains(.string("ZZZ")))
    }

    /// Starts a background fetch with a preview of `previewCount` results; returns once the
    /// preview is installed, with the fetch's completion still to come.
    func fetchWithPreview(_ controller: FetchedResultsController, _ cancellation: QueryCancellation, previewCount: Int,
                          completion: @escaping @Sendable (Error?) -> Void) {
        controller.context.performAndWait {
            controller.performFetch(cancellation: cancellation, previewCount: previewCount, completion: completion)
        }
    }

    @Test("a preview shows the first results at once, incomplete; the full index replaces it with the changes made meanwhile")
    func previewThenFullIndex() async throws {
        let (store, context) = try seeded()
        defer { withExtendedLifetime(store) {} }  // its folder holds the file the save opens
        let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name") }
        let gate = QueryGate()
        let cancellation = QueryCancellation { _ in gate.hold() }
        let (done, finished) = AsyncStream<Error?>.makeStream()
        fetchWithPreview(controller, cancellation, previewCount: 30) { finished.yield($0) }
        await gate.waitUntilStarted()
        // The full query is held: the preview is what shows.
        let expected = try context.performAndWait { () -> [ObjectID] in
            let fresh = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name")
            try fresh.performFetch()
            return Array(fresh.snapshot.items.flatMap { $0 }.prefix(30))
        }
        context.performAndWait {
            #expect(!controller.isComplete)
            #expect(controller.count == 30)
            #expect(controller.snapshot.items.flatMap { $0 } == expected)
            #expect(controller.sections.map(\.name) == ["energy"], "sections of the preview's rows")
        }
        // A change saved now is not in the held query's snapshot, nor shown by the preview.
        try context.performAndWait {
            let t = try context.insert(Ticker.self)
            t.symbol = "A0000"
            t.price = 9
            t.sector = try context.fetch(FetchRequest(entityName: "Sector", predicate: try ObjectPredicate(format: "name == 'energy'"))).first as? Sector
            try context.save()
        }
        gate.release()
        let error = try await nextElement(of: done, awaiting: "the background fetch to complete") ?? nil
        #expect(error == nil)
        try context.performAndWait {
            #expect(controller.isComplete)
            let fresh = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name")
            try fresh.performFetch()
            #expect(controller.snapshot == fresh.snapshot)
            #expect(controller.count == 1601)
        }
    }

    @Test("a background fetch with a cache name writes the cache, and the next one reads it instead of querying")
    func backgroundFetchUsesTheCache() async throws {
        let (_, context) = try seeded(200)
        let directory = TemporaryDirectory()
        func controller() throws -> FetchedResultsController {
            try context.performAndWait {
                let controller = try FetchedResultsController(fetchRequest: Self.request, context: context, sectionNameKeyPath: "sector.name", cacheName: "tickers")
                controller.cacheDirectory = directory.url
                return controller
            }
        }
        let first = try controller()
        #expect(try await fetch(first, QueryCancellation()) == nil)
        let second = try controller()
        #expect(try await fetch(second, QueryCancellation()) == nil)
        context.performAndWait {
            #expect(first.storeFetchCount == 1 && first.cacheHitCount == 0)
            #expect(second.storeFetchCount == 0 && second.cacheHitCount == 1)
            #expect(second.snapshot == first.snapshot && second.count == 160)
        }
    }
}
