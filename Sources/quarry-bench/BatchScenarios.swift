import Foundation
import GRDBSQLite
@_spi(Benchmarks) import Quarry
import QuarryDemo

/// A stack on the ticker store at `url` (history recorded, no watch of other processes: the
/// scenarios time this process alone).
private func tickerStack(_ url: URL) throws -> PersistentStack {
    var options = PersistentStack.Options()
    options.storeURL = url
    options.watchesRemoteChanges = false
    return try PersistentStack(model: tickerModel, options: options)
}

/// The tickers `makeTickerStore` prices below `limit` (prices are 10 + (i mod 10,000) / 100, so
/// `price < 20` selects 10 % of them).
private func cheaperThan(_ limit: Double) throws -> ObjectPredicate {
    try ObjectPredicate(format: "price < %@", .value(.double(limit)))
}

/// n tickers seeded into `quarry.sqlite` and copied to `other.sqlite` (two identical stores).
private func twoTickerStores(n: Int) throws -> (URL, URL, URL, Double) {
    let dir = try benchDirectory()
    let first = dir.appendingPathComponent("quarry.sqlite")
    let second = dir.appendingPathComponent("other.sqlite")
    let seeding = try measure {
        try makeTickerStore(n: n, url: first)
        try FileManager.default.copyItem(at: first, to: second)
    }
    return (dir, first, second, seeding)
}

/// Scenario `batch-delete`: delete the 10 % of n tickers (default 1,000,000) priced under 20 —
/// through a context (fetch, delete each, save) on one copy of the store against one
/// `BatchDeleteRequest` on the other; both with persistent history. `ratio batch-delete` is the
/// context's time over the request's.
func runBatchDeleteScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let (dir, contextURL, batchURL, seeding) = try twoTickerStores(n: n)
    defer { try? FileManager.default.removeItem(at: dir) }
    print("batch-delete: the tickers priced under 20 (10 %) of \(n); seeded (and copied) in \(String(format: "%.1f", seeding)) s")
    let predicate = try cheaperThan(20)

    let contextStack = try tickerStack(contextURL)
    let importer = contextStack.importerContext()
    var deleted = 0
    let throughContext = try measure {
        try importer.performAndWait {
            let objects = try importer.fetch(FetchRequest(entityName: "Ticker", predicate: predicate))
            for object in objects { importer.delete(object) }
            deleted = objects.count
            try importer.save()
            importer.reset()
        }
    }
    let batchStack = try tickerStack(batchURL)
    var result = BatchResult(count: 0)
    let throughRequest = try measure { result = try batchStack.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Ticker", predicate: predicate))) }
    guard result.count == deleted, deleted > 0 else { throw BenchError.check("the request deleted \(result.count), the context \(deleted)") }
    report("fetch + delete + save", n: deleted, seconds: throughContext)
    report("BatchDeleteRequest", n: result.count, seconds: throughRequest)
    ratio("batch-delete", throughContext / throughRequest)
}

/// Scenario `batch-update`: `price = price * 1.1` on the 10 % of n tickers (default 1,000,000)
/// priced under 20 — a raw `UPDATE … WHERE` (with `Z_OPT` bumped) through SQLite's C API on one
/// copy of the store against a `BatchUpdateRequest` (with persistent history) on the other.
/// `ratio batch-update` is the raw statement's time over the request's.
func runBatchUpdateScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let (dir, rawURL, batchURL, seeding) = try twoTickerStores(n: n)
    defer { try? FileManager.default.removeItem(at: dir) }
    print("batch-update: price = price * 1.1 for the tickers priced under 20 (10 %) of \(n); seeded (and copied) in \(String(format: "%.1f", seeding)) s")

    let db = try RawDatabase(url: rawURL)
    var rawCount = 0
    let raw = try measure {
        try db.exec("BEGIN IMMEDIATE")
        try db.exec("UPDATE Ticker SET price = price * 1.1, Z_OPT = Z_OPT + 1 WHERE price < 20")
        rawCount = Int(sqlite3_changes(db.handle))
        try db.exec("COMMIT")
    }
    let stack = try tickerStack(batchURL)
    let request = try BatchUpdateRequest(entityName: "Ticker", predicate: cheaperThan(20), setting: "price = price * 1.1")
    var result = BatchResult(count: 0)
    let batch = try measure { result = try stack.execute(request) }
    guard result.count == rawCount, rawCount > 0 else { throw BenchError.check("the request updated \(result.count), the raw UPDATE \(rawCount)") }
    report("raw UPDATE … WHERE", n: rawCount, seconds: raw)
    report("BatchUpdateRequest", n: result.count, seconds: batch)
    ratio("batch-update", raw / batch)
}

/// Scenario `batch-merge`: a fetched-results controller over n tickers (default 1,000,000)
/// sorted by price on a stack's main context; each round a `BatchUpdateRequest` raises the
/// price of another 1 % (10,000 of a million: those priced from 10 + round to 11 + round) to
/// the end of the order, and the stack merges it. Timed: from
/// the request's commit (the store's WAL hook) to the controller's `didChangeContent` on the
/// main queue, against re-running the controller's fetch. p50 over `rounds` rounds (default 5);
/// every round checks the merged results against a fresh fetch.
func runBatchMergeScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = max(1, args.int("rounds", default: 5))
    let dir = try benchDirectory()
    let url = dir.appendingPathComponent("quarry.sqlite")
    let seeding = try measure { try makeTickerStore(n: n, url: url) }
    print("batch-merge: \(n) tickers by price in a live controller; each round a batch update of another 1 % (priced from 10 + round to 11 + round); seeded in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "batch-merge", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        let stack = try tickerStack(url)
        guard let store = stack.writerCoordinator.store as? SQLiteStore else { throw BenchError.check("not an SQLite store") }
        let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price"), SortKey("symbol")])
        let signal = RemoteChangeSignal()
        let main = stack.mainContext
        let (controller, first) = try fetchedOnMainQueue(request, context: main, signal: signal)
        print("  first fetch  n=\(n)  \(String(format: "%.3f", first)) s")
        var merges: [Double] = [], refetches: [Double] = []
        var changed = 0
        for round in 0..<rounds {
            // Each round moves a different 1 % (prices from 10 + round up to 11 + round) to the end.
            let band = try ObjectPredicate(format: "price >= %@ AND price < %@", .value(.double(Double(10 + round))), .value(.double(Double(11 + round))))
            let update = BatchUpdateRequest(entityName: "Ticker", predicate: band,
                                            propertiesToUpdate: [("price", try ValueExpression(parsing: "price + 200"))])
            let result = try stack.execute(update)
            changed = result.count
            signal.arrived.wait()
            let committed = store.lastCommitUptime
            guard signal.changed > committed else { throw BenchError.check("the controller changed before the request committed") }
            merges.append(Double(signal.changed - committed) / 1e9)
            let merged = DispatchQueue.main.sync { controller.snapshot.items.first ?? [] }
            let fresh = try DispatchQueue.main.sync { try FetchedResultsController(fetchRequest: request, context: main) }
            refetches.append(try measure { try DispatchQueue.main.sync { try fresh.performFetch() } })
            let freshIDs = DispatchQueue.main.sync { fresh.snapshot.items.first ?? [] }
            guard freshIDs == merged, merged.count == n else { throw BenchError.check("merged results differ from a fresh fetch") }
        }
        func p(_ xs: [Double]) -> String { String(format: "p50 %.4f s  max %.4f s", percentile(xs, 0.5), xs.max() ?? 0) }
        print("  batch update's commit → didChangeContent  k=\(changed) n=\(n)  \(p(merges))")
        print("  re-run fetch                              n=\(n)  \(p(refetches))")
        ratio("batch-merge", percentile(refetches, 0.5) / percentile(merges, 0.5))
    }
}
