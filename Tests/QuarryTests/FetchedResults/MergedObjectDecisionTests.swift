import Foundation
import class GRDB.DatabaseQueue
import Testing
@testable import Quarry
import QuarryTestSupport

/// How a controller decides about objects a merge changed that it has not loaded: by the keys
/// that changed, by the state the save carried, or (a relationship in the predicate) by one
/// store query for the whole batch; never by loading them.
@Suite("Fetched-results controller: merged objects it has not loaded")
struct MergedObjectDecisionTests {
    /// Twenty tickers, T0…T19, priced 0…19; even ones in sector "A", odd ones in "B".
    func seed(_ importer: ObjectContext) throws -> [ObjectID] {
        try importer.performAndWait {
            let a = try importer.insert(Sector.self); a.name = "A"
            let b = try importer.insert(Sector.self); b.name = "B"
            let tickers = try (0..<20).map { i -> Ticker in
                let t = try importer.insert(Ticker.self)
                t.symbol = "T\(i)"; t.price = Double(i); t.sector = i % 2 == 0 ? a : b
                return t
            }
            try importer.save()
            return tickers.map(\.objectID)
        }
    }

    func save(_ importer: ObjectContext, _ edit: () throws -> Void) throws -> SaveChanges {
        try importer.performAndWait {
            try edit()
            guard case .saved(let changes) = try importer.save() else { return SaveChanges() }
            return changes
        }
    }

    /// The IDs a fresh fetch of `request` gives, in order.
    func fresh(_ request: FetchRequest, _ context: ObjectContext) throws -> [[ObjectID]] {
        let c = try FetchedResultsController(fetchRequest: request, context: context)
        try c.performFetch()
        return c.snapshot.items
    }

    @Test("decided by changed keys, carried state or one query; nothing loaded", arguments: StoreKind.allCases)
    func decisions(kind: StoreKind) throws {
        let store = TestStore(kind)
        let importer = try store.context("importer")
        let ids = try seed(importer)
        let main = try store.context("main")
        let local = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "price >= 10"), sortDescriptors: [SortKey("price")])
        let related = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.name == 'A'"), sortDescriptors: [SortKey("price")])
        let (byState, byQuery, log) = try main.performAndWait { () -> (FetchedResultsController, FetchedResultsController, CallLog) in
            let byState = try FetchedResultsController(fetchRequest: local, context: main)
            let byQuery = try FetchedResultsController(fetchRequest: related, context: main)
            try byState.performFetch()
            try byQuery.performFetch()
            let log = CallLog()
            byState.delegate = log
            return (byState, byQuery, log)
        }
        let registered = main.performAndWait { main.registeredObjectCount }

        // Prices change membership and order; a name changes nothing the requests read.
        let first = try save(importer) {
            (importer.object(with: ids[3]) as! Ticker).price = 50     // joins `local`
            (importer.object(with: ids[15]) as! Ticker).price = 1     // leaves `local`
            (importer.object(with: ids[12]) as! Ticker).price = 30    // moves in both
            (importer.object(with: ids[14]) as! Ticker).name = "renamed"
            let n = try importer.insert(Ticker.self)
            n.symbol = "NEW"; n.price = 70; n.sector = (importer.object(with: ids[0]) as! Ticker).sector
        }
        #expect(first.carriesSnapshots)
        try main.performAndWait {
            main.merge(fromDidSave: first)
            #expect(main.registeredObjectCount == registered, "nothing loaded to decide")
            #expect(byState.mergeQueries == 0, "the carried state decided a local predicate")
            #expect(byQuery.mergeQueries == 1, "a relationship in the predicate: one query for the batch")
            let byStateFresh = try fresh(local, main)
            #expect(byState.snapshot.items == byStateFresh)
            let byQueryFresh = try fresh(related, main)
            #expect(byQuery.snapshot.items == byQueryFresh)
            #expect(log.calls.contains("update [0, 4] -"), "the renamed T14 is updated in place: \(log.calls)")
        }

        // Only names change: the requests read neither, so no query and no move.
        log.calls = []
        let second = try save(importer) {
            for i in [10, 16, 18] { (importer.object(with: ids[i]) as! Ticker).name = "n\(i)" }
        }
        try main.performAndWait {
            main.merge(fromDidSave: second)
            #expect(byQuery.mergeQueries == 1, "changed keys the request does not read need no query")
            let byQueryFresh = try fresh(related, main)
            #expect(byQuery.snapshot.items == byQueryFresh)
            #expect(log.calls.filter { $0.hasPrefix("update") }.count == 3)
            #expect(!log.calls.contains { $0.hasPrefix("move") || $0.hasPrefix("insert") || $0.hasPrefix("delete") })
            #expect(main.registeredObjectCount == registered)
        }
    }

    @Test("a save into the store carries the stored state of what it inserted and updated", arguments: StoreKind.allCases)
    func carriedState(kind: StoreKind) throws {
        let store = TestStore(kind)
        let importer = try store.context("importer")
        let ids = try seed(importer)
        let price = store.model.entity(named: "Ticker")!.attributeIndex("price")!
        let changes = try save(importer) {
            (importer.object(with: ids[1]) as! Ticker).price = 42
            let n = try importer.insert(Ticker.self); n.symbol = "NEW"; n.price = 7
        }
        #expect(changes.carriesSnapshots)
        #expect(changes.updatedSnapshots.map { $0.values[price] } == [.double(42)])
        #expect(changes.insertedSnapshots.map { $0.values[price] } == [.double(7)])
        #expect(changes.updatedSnapshots[0].version == 2 && changes.insertedSnapshots[0].version == 1)

        // A child's save into its parent reached no store: it carries nothing.
        let child = ObjectContext(concurrencyType: .privateQueue, parent: importer, name: "child")
        let childChanges = try save(child) { (child.object(with: ids[2]) as! Ticker).price = 1 }
        #expect(!childChanges.carriesSnapshots && childChanges.updatedSnapshots.isEmpty)
    }

    @Test("a merge refreshes registered objects from the carried state, not from the store", arguments: StoreKind.allCases)
    func refreshFromCarriedState(kind: StoreKind) throws {
        let store = TestStore(kind)
        let importer = try store.context("importer")
        let ids = try seed(importer)
        let main = try store.context("main")
        let shown = main.performAndWait { () -> Ticker in let t = main.object(with: ids[5]) as! Ticker; _ = t.price; return t }
        let first = try save(importer) { (importer.object(with: ids[5]) as! Ticker).price = 100 }
        let second = try save(importer) { (importer.object(with: ids[5]) as! Ticker).price = 200 }
        main.performAndWait {
            // The store holds 200 by now; the first save carried 100.
            main.merge(fromDidSave: first)
            #expect(shown.price == 100)
            main.merge(fromDidSave: second)
            #expect(shown.price == 200)
            // A late merge of an older save does not go back in time.
            main.merge(fromDidSave: first)
            #expect(shown.price == 200)
        }
    }

    @Test("a failed decision query is told to the delegate, the rest of the change applies, a refetch catches up")
    func failedDecisionQueryIsReported() throws {
        let store = TestStore(.sqlite)
        let importer = try store.context("importer")
        let ids = try seed(importer)
        let main = try store.context("main")
        var related = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.name == 'A'"), sortDescriptors: [SortKey("price")])
        // Batches of one: the controller holds the batch it faults in, and T2 must stay unregistered.
        related.fetchBatchSize = 1
        let (controller, log, first, sector) = try main.performAndWait { () -> (FetchedResultsController, FailureLog, Ticker, Sector?) in
            let controller = try FetchedResultsController(fetchRequest: related, context: main)
            try controller.performFetch()
            let log = FailureLog()
            controller.delegate = log
            // T0 and its sector loaded (and held): T0 is decided in memory.
            let first = controller.object(at: RowPath(section: 0, row: 0)) as! Ticker
            let sector = first.sector
            _ = sector?.name
            return (controller, log, first, sector)
        }
        let saved = try save(importer) {
            (importer.object(with: ids[0]) as! Ticker).price = 100   // registered here: moves to the end
            (importer.object(with: ids[2]) as! Ticker).price = 90    // not registered: needs the query
        }
        // Another program takes the sector table away: the query deciding T2 fails.
        let database = try DatabaseQueue(path: store.url.path)
        try database.write { try $0.execute(sql: #"ALTER TABLE "Sector" RENAME TO "Hidden""#) }
        try main.performAndWait {
            main.merge(fromDidSave: saved)
            guard case .mergeQueryFailed(let entity, let objects, let reason)? = controller.lastError else {
                Issue.record("no error recorded: \(String(describing: controller.lastError))")
                return
            }
            #expect(entity == "Ticker" && objects == 1 && reason.contains("Sector"), "\(String(describing: controller.lastError))")
            #expect(log.failures == [controller.lastError!])
            #expect(log.calls.contains("move [0, 0] [0, 9]"), "the registered T0 still moved: \(log.calls)")
        }
        try database.write { try $0.execute(sql: #"ALTER TABLE "Hidden" RENAME TO "Sector""#) }
        try main.performAndWait {
            try controller.refetchReportingChanges()
            #expect(controller.snapshot.items == (try fresh(related, main)), "a refetch places T2")
            #expect(first.price == 100 && sector?.name == "A")
        }
    }
}

/// A delegate recording object changes and failures.
private final class FailureLog: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Used on the controller's context queue only.
    var calls: [String] = []
    var failures: [FetchedResultsError] = []
    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?) {
        calls.append("\(type) \(indexPath.map(\.description) ?? "-") \(newIndexPath.map(\.description) ?? "-")")
    }
    func controller(_ controller: FetchedResultsController, didFailWith error: FetchedResultsError) { failures.append(error) }
}
