import Foundation
import GRDBSQLite
import Quarry
import QuarryDemo

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

/// Scenario `frc-update`: n results, an importer save changes the sort key of k of them;
/// the time from the save to the controller's `didChangeContent` against re-running the same
/// fetch (a re-query observer's cost) and against `difference(from:)` over the old and new
/// sorted ID arrays. Each of `rounds` rounds (default 9) makes a new save and measures all
/// three side by side; the ratios are of the medians. Every round checks the incremental
/// results against the fresh fetch (outside the timed parts).
func runFRCUpdateScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 9))
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("frc-update: \(n) results, an importer save changes the sort key of \(k); \(rounds) rounds, medians")

    let main = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "main"), name: "main")
    let importer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "writer"), name: "importer")
    let request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    let clock = ChangeClock()
    var rng = SplitMix64(seed: 7)
    let controller = try main.performAndWait { () -> FetchedResultsController in
        let c = try FetchedResultsController(fetchRequest: request, context: main)
        try c.performFetch()
        c.delegate = clock
        return c
    }
    let a = AttributeKey<Int64>("a")
    var incremental: [Double] = [], refetch: [Double] = [], diff: [Double] = []
    var reported = 0, diffCount = 0
    for _ in 0..<rounds {
        let oldIDs = main.performAndWait { controller.snapshot.items.first ?? [] }
        guard oldIDs.count == n else { throw BenchError.check("controller holds \(oldIDs.count) results, expected \(n)") }
        // The importer changes k sort keys (and saves); the merge into main drives the controller.
        let changes = try importer.performAndWait { () -> SaveChanges in
            for _ in 0..<k {
                let row = importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(1 + rng.below(n))))
                row[a] = Int64(rng.below(n)) * 2 + 1
            }
            guard case .saved(let c) = try importer.save() else { throw BenchError.check("importer saved nothing") }
            importer.reset()
            return c
        }
        let before = clock.objectChanges
        let start = DispatchTime.now().uptimeNanoseconds
        main.performAndWait { main.merge(fromDidSave: changes) }
        guard clock.changed > start, clock.objectChanges > before else { throw BenchError.check("the controller reported no change") }
        incremental.append(Double(clock.changed - start) / 1e9)
        reported = clock.objectChanges - before
        let newIDs = main.performAndWait { controller.snapshot.items[0] }

        // The re-query observer's cost: run the same fetch again (the controller is released
        // at the end of the round, so it never sees a later save).
        let fresh = try main.performAndWait { try FetchedResultsController(fetchRequest: request, context: main) }
        refetch.append(try measure { try main.performAndWait { try fresh.performFetch() } })
        let freshIDs = main.performAndWait { fresh.snapshot.items.first ?? [] }
        guard freshIDs == newIDs else { throw BenchError.check("incremental results differ from a fresh fetch") }
        diff.append(measure { diffCount = newIDs.difference(from: oldIDs).count })
    }
    func median(_ xs: [Double]) -> Double { percentile(xs, 0.5) }
    func figures(_ xs: [Double]) -> String {
        String(format: "%.4f s  (min %.4f, max %.4f)", median(xs), xs.min()!, xs.max()!)
    }
    print("  incremental update     k=\(k) n=\(n)  \(figures(incremental))  (\(reported) object changes reported)")
    print("  re-run fetch           n=\(n)  \(figures(refetch))")
    print("  difference(from:)      n=\(n)  \(figures(diff))  (\(diffCount) changes)")
    ratio("frc-update", median(refetch) / median(incremental))
    ratio("frc-update-vs-diff", median(diff) / median(incremental))
}

/// Resident memory of this process, in bytes (from /proc/self/statm).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// Scenario `frc-fetch`: `performFetch` of n = 1,000,000 results (batch size 50) vs the raw
/// `SELECT rowid … ORDER BY`, the memory it adds, and reading the 50 rows from the middle
/// (500,000–500,050 of a million; any n, so `--n 100000` runs too).
func runFRCFetchScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("frc-fetch: performFetch of \(n) results sorted by an indexed attribute, batch size 50")
    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel)), name: "main")
    var request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    request.fetchBatchSize = 50
    let before = residentBytes()
    var controller: FetchedResultsController?
    let fetch = try measure {
        try context.performAndWait {
            let c = try FetchedResultsController(fetchRequest: request, context: context)
            try c.performFetch()
            controller = c
        }
    }
    let after = residentBytes()
    guard let controller, controller.count == n else { throw BenchError.check("controller holds \(controller?.count ?? 0) results") }
    var read = 0
    let middle = n / 2
    let window = measure {
        context.performAndWait {
            for row in middle..<min(n, middle + 50) {
                if controller.object(at: RowPath(section: 0, row: row))["c"] != .null { read += 1 }
            }
        }
    }
    let db = try RawDatabase(url: url)
    let select = try db.prepare("SELECT rowid FROM \"Row\" ORDER BY a")
    var count = 0
    let raw = measure {
        var ids: [Int64] = []
        while sqlite3_step(select) == SQLITE_ROW { ids.append(sqlite3_column_int64(select, 0)) }
        count = ids.count
    }
    sqlite3_finalize(select)
    print("  performFetch           n=\(n)  \(String(format: "%.3f", fetch)) s  resident +\((after - before) / 1_048_576) MB")
    print("  rows \(middle)-\(middle + 50)     \(read) objects  \(String(format: "%.5f", window)) s")
    print("  raw SELECT rowid       n=\(count)  \(String(format: "%.3f", raw)) s")
    ratio("frc-fetch", raw / fetch)
}

/// Scenario `import-live`: importer throughput while a controller on the main context is live
/// (its saves merged into main as they land) vs the same import with no controller.
func runImportLiveScenario(_ args: BenchArguments) throws {
    let base = args.int("n", default: 100_000)
    let rows = args.int("rows", default: 200_000)
    let chunk = args.int("chunk", default: 1_000)
    print("import-live: \(rows) rows imported in saves of \(chunk) into a store of \(base), with and without a live controller")
    func run(live: Bool) throws -> Double {
        let dir = try benchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rows.sqlite")
        try makeIndexedRowStore(n: base, url: url)
        let main = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "main"), name: "main")
        let importer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "writer"), name: "importer")
        var controller: FetchedResultsController?
        if live {
            controller = try main.performAndWait {
                let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")]), context: main)
                try c.performFetch()
                return c
            }
            importer.addDidSaveObserver { event in main.perform { main.merge(fromDidSave: event.changes) } }
        }
        let a = AttributeKey<Int64>("a"), c = AttributeKey<String>("c")
        let seconds = try measure {
            try importer.performAndWait {
                var done = 0
                while done < rows {
                    for i in done..<min(rows, done + chunk) {
                        let row = try importer.insertObject(entityName: "Row")
                        row[a] = Int64(base + i) * 2
                        row[c] = "live \(i)"
                    }
                    try importer.save()
                    done += chunk
                }
            }
        }
        if let controller {
            let shown = main.performAndWait { controller.count }
            guard shown == base + rows else { throw BenchError.check("the live controller shows \(shown), expected \(base + rows)") }
        }
        return seconds
    }
    // Best of two alternating rounds per side.
    var without = Double.infinity, with = Double.infinity
    for _ in 0..<2 {
        without = min(without, try run(live: false))
        with = min(with, try run(live: true))
    }
    report("importer, no controller", n: rows, seconds: without)
    report("importer, live controller", n: rows, seconds: with)
    ratio("import-live", without / with)
}
