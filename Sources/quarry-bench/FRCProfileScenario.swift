import Foundation
import Quarry
import QuarryDemo

/// Scenario `frc-update-rounds` (a profiling aid, no ratio): the `frc-update` step repeated —
/// `rounds` importer saves each changing the sort key of k of n results — with the minimum
/// and median time from save to `didChangeContent`. Run under `perf record` to see where the
/// incremental path spends its time without the set-up dominating.
func runFRCUpdateRoundsScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = args.int("rounds", default: 50)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    let main = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "main"), name: "main")
    let importer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel), name: "writer"), name: "importer")
    let clock = ChangeClock()
    let controller = try main.performAndWait { () -> FetchedResultsController in
        let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")]), context: main)
        try c.performFetch()
        c.delegate = clock
        return c
    }
    var rng = SplitMix64(seed: 11)
    let a = AttributeKey<Int64>("a")
    var times: [Double] = []
    for _ in 0..<rounds {
        let changes = try importer.performAndWait { () -> SaveChanges in
            for _ in 0..<k {
                let row = importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(1 + rng.below(n))))
                row[a] = Int64(rng.below(n)) * 2 + 1
            }
            guard case .saved(let c) = try importer.save() else { throw BenchError.check("importer saved nothing") }
            return c
        }
        importer.performAndWait { importer.reset() }
        let start = DispatchTime.now().uptimeNanoseconds
        main.performAndWait { main.merge(fromDidSave: changes) }
        times.append(Double(clock.changed - start) / 1e9)
    }
    times.sort()
    let shown = main.performAndWait { controller.count }
    print("frc-update-rounds: \(rounds) rounds of k=\(k) in n=\(shown): min \(String(format: "%.4f", times[0])) s, median \(String(format: "%.4f", times[times.count / 2])) s")
}
