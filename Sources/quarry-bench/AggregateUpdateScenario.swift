import Foundation
import GRDBSQLite
@_spi(Benchmarks) import Quarry
import QuarryDemo

/// Scenario `aggregate-update`: a live aggregate controller (count, sum of volume and mean
/// price per `sector.name`, 11 groups) over n demo tickers (default 1,000,000) on a stack's
/// main context; each round the importer saves new volumes for k random tickers (default
/// 1,000) and the stack merges the save. Timed: from the save's commit (the store's WAL hook)
/// to the controller's `didChangeContent` on the main queue, against re-running the raw
/// `SELECT … GROUP BY` through SQLite's C API. p50 over `rounds` rounds (default 10); every
/// round checks the controller's counts and sums against the raw query's.
func runAggregateUpdateScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 10))
    let (dir, url, model, seeding) = try seededDemoStore(rows: n)
    print("aggregate-update: count(), sum(volume), avg(price) per sector.name over \(n) demo tickers, live; each round an importer save of \(k) new volumes; seeded in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "aggregate-update", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        var options = PersistentStack.Options()
        options.storeURL = url
        options.watchesRemoteChanges = false
        let stack = try PersistentStack(model: model, options: options)
        guard let store = stack.writerCoordinator.store as? SQLiteStore else { throw BenchError.check("not an SQLite store") }
        var request = FetchRequest(entityName: "Ticker")
        request.propertiesToFetch = [.key("sector.name"), .count(), .aggregate(.sum, "volume"), .aggregate(.avg, "price")]
        request.propertiesToGroupBy = ["sector.name"]
        let signal = RemoteChangeSignal()
        let main = stack.mainContext
        let (controller, first) = try DispatchQueue.main.sync { () throws -> (AggregateResultsController, Double) in
            let controller = try AggregateResultsController(fetchRequest: request, context: main)
            let seconds = try measure { try controller.performFetch() }
            controller.delegate = signal
            return (controller, seconds)
        }
        print("  first fetch  n=\(n)  \(String(format: "%.3f", first)) s  \(DispatchQueue.main.sync { controller.numberOfGroups }) groups")

        let importer = stack.importerContext()
        let ids = try importer.performAndWait { try importer.fetchObjectIDs(FetchRequest(entityName: "Ticker")) }
        let db = try RawDatabase(url: url)
        let select = try db.prepare("""
            SELECT s.name, count(*), sum(t.volume), avg(t.price) FROM Ticker t LEFT JOIN Sector s ON s.Z_PK = t.sector GROUP BY s.name
            """)
        defer { sqlite3_finalize(select) }
        var rng = SplitMix64(seed: 11)
        var merges: [Double] = [], raws: [Double] = [], queries = 0
        for round in 0..<rounds {
            try importer.performAndWait {
                for _ in 0..<k {
                    let ticker = importer.object(with: ids[rng.below(ids.count)])
                    try ticker.setValue(.integer(Int64(rng.below(1_000_000)) + Int64(round)), forKey: "volume")
                }
                try importer.save()
                importer.reset()
            }
            signal.arrived.wait()
            let committed = store.lastCommitUptime
            guard signal.changed > committed else { throw BenchError.check("the controller changed before the save committed") }
            merges.append(Double(signal.changed - committed) / 1e9)
            let live = DispatchQueue.main.sync { () -> [String: (Int64, Int64)] in
                queries += controller.lastUpdate?.storeQueries ?? 0
                var groups: [String: (Int64, Int64)] = [:]
                for g in controller.groups {
                    guard case .integer(let count) = g["count()"], case .integer(let volume) = g["sum(volume)"] else { continue }
                    if case .string(let name) = g["sector.name"] { groups[name] = (count, volume) } else { groups["(nil)"] = (count, volume) }
                }
                return groups
            }
            var rawRows: [String: (Int64, Int64)] = [:]
            raws.append(measure {
                while sqlite3_step(select) == SQLITE_ROW {
                    let name = sqlite3_column_text(select, 0).map { String(cString: $0) } ?? "(nil)"
                    rawRows[name] = (sqlite3_column_int64(select, 1), sqlite3_column_int64(select, 2))
                }
                sqlite3_reset(select)
            })
            guard live.count == rawRows.count, rawRows.allSatisfy({ entry in live[entry.key].map { $0 == entry.value } ?? false }) else {
                throw BenchError.check("round \(round): the live groups \(live.sorted { $0.key < $1.key }) differ from the raw GROUP BY's \(rawRows.sorted { $0.key < $1.key })")
            }
        }
        func p(_ xs: [Double]) -> String { String(format: "p50 %.4f s  max %.4f s", percentile(xs, 0.5), xs.max() ?? 0) }
        print("  save's commit → didChangeContent  k=\(k) n=\(n)  \(p(merges))  store queries \(queries)")
        print("  raw GROUP BY                      n=\(n)  \(p(raws))")
        ratio("aggregate-update", percentile(raws, 0.5) / percentile(merges, 0.5))
    }
}
