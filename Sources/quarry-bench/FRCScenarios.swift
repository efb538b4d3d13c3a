import Foundation
import GRDBSQLite
import Quarry

/// Records when `didChangeContent` arrives.
final class ChangeClock: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Used on the controller's context queue only.
    var changed: UInt64 = 0
    var objectChanges = 0
    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?) {
        objectChanges += 1
    }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { changed = DispatchTime.now().uptimeNanoseconds }
}

/// Scenario `frc-update`: n results live in a controller; an importer save changes the sort key
/// of k of them; time from the end of the save to `didChangeContent` vs re-running the fetch,
/// and vs diffing the old and new sorted ID arrays with `difference(from:)`.
func runFRCUpdateScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("frc-update: \(n) results, an importer save changes the sort key of \(k)")

    let main = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "main"), name: "main")
    let importer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "writer"), name: "importer")
    let request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    let clock = ChangeClock()
    var rng = SplitMix64(seed: 7)
    let (controller, oldIDs) = try main.performAndWait { () -> (FetchedResultsController, [ObjectID]) in
        let c = try FetchedResultsController(fetchRequest: request, context: main)
        try c.performFetch()
        c.delegate = clock
        return (c, c.snapshot.items[0])
    }
    guard oldIDs.count == n else { throw BenchError.check("controller holds \(oldIDs.count) results, expected \(n)") }

    // The importer changes k sort keys (and saves); the merge into main drives the controller.
    let a = AttributeKey<Int64>("a")
    let changes = try importer.performAndWait { () -> SaveChanges in
        for _ in 0..<k {
            let row = importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(1 + rng.below(n))))
            row[a] = Int64(rng.below(n)) * 2 + 1
        }
        guard case .saved(let c) = try importer.save() else { throw BenchError.check("importer saved nothing") }
        return c
    }
    let start = DispatchTime.now().uptimeNanoseconds
    main.performAndWait { main.merge(fromDidSave: changes) }
    let incremental = Double(clock.changed - start) / 1e9
    guard clock.changed > start, clock.objectChanges > 0 else { throw BenchError.check("the controller reported no change") }
    let newIDs = main.performAndWait { controller.snapshot.items[0] }

    // The re-query observer's cost: run the same fetch again.
    let refetch = try measure {
        try main.performAndWait {
            let fresh = try FetchedResultsController(fetchRequest: request, context: main)
            try fresh.performFetch()
            guard fresh.snapshot.items[0] == newIDs else { throw BenchError.check("incremental results differ from a fresh fetch") }
        }
    }
    var diffCount = 0
    let diff = measure { diffCount = newIDs.difference(from: oldIDs).count }
    print("  incremental update     k=\(k) n=\(n)  \(String(format: "%.4f", incremental)) s  (\(clock.objectChanges) object changes reported)")
    print("  re-run fetch           n=\(n)  \(String(format: "%.4f", refetch)) s")
    print("  difference(from:)      n=\(n)  \(String(format: "%.4f", diff)) s  (\(diffCount) changes)")
    ratio("frc-update", refetch / incremental)
    ratio("frc-update-vs-diff", diff / incremental)
}
