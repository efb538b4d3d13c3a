import Foundation
import GRDB
@_spi(Benchmarks) import Quarry
import Synchronization

/// Scenario `outside-write`: how long a write that bypasses Quarry takes to show in a stack's
/// main context while another stack's importer saves without pause (issue 34, item 1: each
/// visible within a second). `writes` outside updates (default 20), each of a row loaded on
/// the main queue, timed from the outside commit's return to the remote change that shows the
/// new value; prints p50 and the worst as `figure` lines.
func runOutsideWriteScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000)
    let writes = max(1, args.int("writes", default: 20))
    let dir = try benchDirectory()
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("outside-write: \(n) rows loaded here, an importer in another stack saving without pause, \(writes) writes by another connection")
    runRoundsOffTheMainQueue(scenario: "outside-write", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        try outsideWriteRounds(url: url, n: n, writes: writes)
    }
}

/// The rows of the reader's main context by primary key, every one loaded (as on a browser's
/// screen, where a loaded object shows a new value only when a merge refreshes it).
/// Read and written on the main queue only.
private final class LoadedRows: @unchecked Sendable {
    // Confined to the main queue.
    var byKey: [Int64: ManagedObject] = [:]
}

private func outsideWriteRounds(url: URL, n: Int, writes: Int) throws {
    let reader = try PersistentStack(model: indexedRowModel, storeURL: url)
    let writer = try PersistentStack(model: indexedRowModel, storeURL: url)
    let main = reader.mainContext
    let rows = LoadedRows()
    try DispatchQueue.main.sync {
        for object in try main.fetch(FetchRequest(entityName: "Row")) {
            _ = try object.value(forKey: "c")
            rows.byKey[object.objectID.primaryKey] = object
        }
    }
    guard rows.byKey.count == n else { throw BenchError.check("the reader loaded \(rows.byKey.count) of \(n) rows") }
    // The importer: saves one row's `b` after another until the outside writes are done.
    let stop = Mutex(false)
    let saves = Mutex(0)
    let failure = Mutex<String?>(nil)
    let importer = writer.importerContext()
    let importing = Thread {
        var round = 0
        while !stop.withLock({ $0 }) {
            round += 1
            do {
                try importer.performAndWait {
                    let request = FetchRequest(entityName: "Row", predicate: try ObjectPredicate(format: "a == \(round % n)"))
                    guard let row = try importer.fetch(request).first else { return }
                    try row.setValue(.double(Double(round)), forKey: "b")
                    try importer.save()
                }
                saves.withLock { $0 += 1 }
            } catch {
                failure.withLock { $0 = "the importer's save failed: \(error)" }
                return
            }
        }
    }
    importing.start()
    defer { stop.withLock { $0 = true } }
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    let outside = try DatabaseQueue(path: url.path, configuration: configuration)
    var latencies: [Double] = []
    for i in 1...writes {
        let key = Int64(1 + (i * 37) % n)
        let value = "outside \(i)"
        let shown = DispatchSemaphore(value: 0)
        let observation = reader.addRemoteChangeObserver { _ in
            let object = MainActor.assumeIsolated { rows.byKey[key] }
            if let object, (try? object.value(forKey: "c")) == .string(value) { shown.signal() }
        }
        try outside.write { try $0.execute(sql: "UPDATE \"Row\" SET c = ? WHERE Z_PK = ?", arguments: [value, key]) }
        let committed = DispatchTime.now().uptimeNanoseconds
        let waited = shown.wait(timeout: .now() + 30)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - committed) / 1e9
        observation.cancel()
        if let failure = failure.withLock({ $0 }) { throw BenchError.check(failure) }
        guard waited == .success else { throw BenchError.check("outside write \(i) (row \(key)) did not show within 30 s") }
        latencies.append(seconds)
    }
    let importerSaves = saves.withLock { $0 }
    guard importerSaves > writes else {
        throw BenchError.check("the importer saved \(importerSaves) times during \(writes) outside writes: not interleaved")
    }
    let p50 = String(format: "%.4f", percentile(latencies, 0.5))
    let worst = String(format: "%.4f", latencies.max()!)
    print("  importer saves meanwhile  \(importerSaves)")
    print("  commit → shown            p50 \(p50) s   worst \(worst) s")
    print("figure outside-write-p50-seconds \(p50)")
    print("figure outside-write-worst-seconds \(worst)")
}
