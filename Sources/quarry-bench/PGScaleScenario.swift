import Foundation
@_spi(Benchmarks) import Quarry
import QuarryDemo
import Synchronization

/// Scenario `pg-scale`: several hosts on one PostgreSQL server, measured. Two writer processes
/// (this binary in `pg-scale-writer` mode, each with its own store and connections, as on other
/// hosts) commit for `seconds` (default 60) as fast as they can, or `rate` commits per second
/// each when given, each commit changing k rows (default 10) of n (default 100,000) and its own
/// marker row's sequence number; three watching stacks here (each with its own connections and
/// listener) keep a controller over all n rows. For every commit and watcher: the time from
/// the commit (the writer's `lastCommitUptime`, the system's monotonic clock) to the first
/// `didChangeContent` after which the watcher holds it. Reports the sustained rate and p50,
/// p95 and p99; checks that every watcher saw every commit and equals a fresh fetch at the end.
func runPGScaleScenario(_ args: BenchArguments) throws {
    let server = try benchPostgreSQLServer("pg-scale")
    let n = args.int("n", default: 100_000)
    let k = args.int("k", default: 10)
    let seconds = max(1, args.int("seconds", default: 60))
    let rate = args.int("rate", default: 0)
    let (url, text) = try pgRemoteMergeStore(server: server)
    print("pg-scale: 2 writer processes, 3 watching stacks, \(n) rows, \(k) changed per commit, \(seconds) s, " +
          (rate > 0 ? "\(rate) commits/s per writer" : "writers as fast as they can") + "; \(url.description)")
    let seeding = try measure { try seedIndexedRows(n: n, url: url) }
    print("  seeded \(n) rows with batch inserts in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "pg-scale", cleanUp: { try? PostgreSQLStore.destroy(url: url) }) {
        try pgScaleRun(url: text, n: n, k: k, seconds: seconds, rate: rate)
    }
}

/// What one watcher saw: per writer, the arrival time of each sequence number.
private final class ScaleWatcher: FetchedResultsControllerDelegate, @unchecked Sendable {
    // `seen` and `arrivals` are touched on the main queue only (the delegate's and the checks').
    let context: ObjectContext
    var seen = [Int64](repeating: 0, count: 2)
    var arrivals: [[UInt64]] = [[], []]
    let progressed = DispatchSemaphore(value: 0)

    init(context: ObjectContext) { self.context = context }

    func controllerDidChangeContent(_ controller: FetchedResultsController) {
        let now = DispatchTime.now().uptimeNanoseconds
        for writer in 0..<2 {
            let marker = context.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(writer + 1)))
            guard case .double(let value)? = try? marker.value(forKey: "b") else { continue }
            let sequence = Int64(value)
            while seen[writer] < sequence {
                seen[writer] += 1
                arrivals[writer].append(now)
            }
        }
        progressed.signal()
    }
}

private func pgScaleRun(url: String, n: Int, k: Int, seconds: Int, rate: Int) throws {
    var options = PersistentStack.Options()
    options.storeURL = URL(string: url)
    options.storeType = .postgreSQL
    let request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    var stacks: [PersistentStack] = [], controllers: [FetchedResultsController] = [], watchers: [ScaleWatcher] = []
    for _ in 0..<3 {
        let stack = try PersistentStack(model: indexedRowModel, options: options)
        let watcher = ScaleWatcher(context: stack.mainContext)
        let controller = try DispatchQueue.main.sync { () throws -> FetchedResultsController in
            let controller = try FetchedResultsController(fetchRequest: request, context: stack.mainContext)
            try controller.performFetch()
            controller.delegate = watcher
            return controller
        }
        stacks.append(stack)
        watchers.append(watcher)
        controllers.append(controller)
    }
    let writers = try (0..<2).map { w in
        try ScaleWriterProcess(arguments: ["pg-scale-writer", "--store", url, "--writer", "\(w)", "--n", "\(n)", "--k", "\(k)",
                                           "--seconds", "\(seconds)", "--rate", "\(rate)"])
    }
    let commits = try writers.map { try $0.waitForCommits() }
    let last = commits.map { Int64($0.count) }
    // Every watcher catches up with both writers' last commits.
    for watcher in watchers {
        let deadline = DispatchTime.now() + .seconds(120)
        while DispatchQueue.main.sync(execute: { zip(watcher.seen, last).contains { $0 < $1 } }) {
            guard watcher.progressed.wait(timeout: deadline) == .success else {
                let seen = DispatchQueue.main.sync { watcher.seen }
                throw BenchError.check("a watcher saw commits \(seen) of \(last) two minutes after the writers stopped")
            }
        }
    }
    for (i, controller) in controllers.enumerated() {
        let merged = DispatchQueue.main.sync { controller.snapshot.items.first ?? [] }
        let fresh = try DispatchQueue.main.sync { () throws -> [ObjectID] in
            let fresh = try FetchedResultsController(fetchRequest: request, context: stacks[i].mainContext)
            try fresh.performFetch()
            return fresh.snapshot.items.first ?? []
        }
        guard merged == fresh, merged.count == n else { throw BenchError.check("watcher \(i) differs from a fresh fetch") }
    }
    var latencies: [Double] = []
    for watcher in watchers {
        let arrivals = DispatchQueue.main.sync { watcher.arrivals }
        for writer in 0..<2 {
            for (s, arrived) in arrivals[writer].enumerated() {
                let committed = commits[writer][s]
                latencies.append(Double(arrived > committed ? arrived - committed : 0) / 1e9)
            }
        }
    }
    let total = commits.reduce(0) { $0 + $1.count }
    print("  writers committed \(commits.map(\.count)) times in \(seconds) s: \(String(format: "%.1f", Double(total) / Double(seconds))) commits/s, \(k + 1) rows each")
    print(String(format: "  commit → didChangeContent, 3 watchers × %d commits: p50 %.4f s  p95 %.4f s  p99 %.4f s",
                 total, percentile(latencies, 0.5), percentile(latencies, 0.95), percentile(latencies, 0.99)))
    print("  every watcher saw every commit and equals a fresh fetch")
    print(String(format: "figure pg-scale-rate %.1f", Double(total) / Double(seconds)))
    print(String(format: "figure pg-scale-p50-ms %.1f", percentile(latencies, 0.5) * 1000))
    print(String(format: "figure pg-scale-p95-ms %.1f", percentile(latencies, 0.95) * 1000))
    withExtendedLifetime(stacks) {}
}

/// This binary in `pg-scale-writer` mode: prints `COMMIT <uptime ns>` per commit, then `DONE`.
private final class ScaleWriterProcess {
    let process = Process()
    let output = Pipe()

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
    }

    /// The commit times, in order, once the writer is done.
    func waitForCommits() throws -> [UInt64] {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard process.terminationStatus == 0, lines.last == "DONE" else {
            throw BenchError.check("a pg-scale writer failed (exit \(process.terminationStatus)): \(lines.last ?? "")")
        }
        return lines.dropLast().compactMap { $0.hasPrefix("COMMIT ") ? UInt64($0.dropFirst(7)) : nil }
    }
}

/// Mode `pg-scale-writer --store URL --writer W --n N --k K --seconds S --rate R`: commits for
/// S seconds (R per second when R > 0), each changing `b` of k random rows and setting marker
/// row W + 1's `b` to the commit's sequence number.
func runPGScaleWriter(_ arguments: [String]) throws {
    let (text, n, k) = try writerArguments(arguments, usage: "pg-scale-writer --store URL --writer W --n N --k K --seconds S --rate R")
    let values = writerOptions(arguments)
    let writer = Int(values["writer"] ?? "") ?? 0, seconds = Double(values["seconds"] ?? "") ?? 60, rate = Double(values["rate"] ?? "") ?? 0
    var options = PersistentStack.Options()
    options.storeURL = URL(string: text)
    options.storeType = .postgreSQL
    options.watchesRemoteChanges = false
    let stack = try PersistentStack(model: indexedRowModel, options: options)
    guard let store = stack.writerCoordinator.store as? PostgreSQLStore else { throw BenchError.check("not a PostgreSQL store") }
    let importer = stack.importerContext()
    let b = AttributeKey<Double>("b")
    var rng = SplitMix64(seed: UInt64(17 + writer))
    let start = DispatchTime.now().uptimeNanoseconds
    let end = start + UInt64(seconds * 1e9)
    var sequence = 0
    var out = ""
    while DispatchTime.now().uptimeNanoseconds < end {
        sequence += 1
        if rate > 0 {
            let due = start + UInt64(Double(sequence - 1) / rate * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(UInt32((due - now) / 1_000)) }
        }
        let committed = try importer.performAndWait { () -> UInt64 in
            for _ in 0..<k {
                importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(3 + rng.below(n - 2))))[b] = Double(rng.below(1_000_000))
            }
            importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(writer + 1)))[b] = Double(sequence)
            try importer.save()
            importer.reset()
            return store.lastCommitUptime
        }
        out += "COMMIT \(committed)\n"
    }
    FileHandle.standardOutput.write(Data((out + "DONE\n").utf8))
}
