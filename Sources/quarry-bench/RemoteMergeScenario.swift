import Foundation
@_spi(Benchmarks) import Quarry
import QuarryDemo
import Synchronization

/// Signals each `didChangeContent` (on the main queue) and records when it arrived.
final class RemoteChangeSignal: FetchedResultsControllerDelegate, AggregateResultsControllerDelegate, @unchecked Sendable {
    // `changed` is written on the main queue before `arrived` is signalled, read after the wait.
    var changed: UInt64 = 0
    let arrived = DispatchSemaphore(value: 0)
    func controllerDidChangeContent(_ controller: FetchedResultsController) { signal() }
    func controllerDidChangeContent(_ controller: AggregateResultsController) { signal() }
    private func signal() {
        changed = DispatchTime.now().uptimeNanoseconds
        arrived.signal()
    }
}

/// Scenario `remote-merge`: n results in a controller on this process's main context; a second
/// process (this binary in `remote-merge-writer` mode) saves k sort-key changes per round
/// through its own stack; the time from the writer's commit (the instant SQLite's WAL hook
/// reports it there, on the system's monotonic clock, the same as ours) to the controller's
/// `didChangeContent` here, through inotify, `data_version`, the history and one batched
/// snapshot read, against re-running the fetch. Also timed from the start of the writer's save
/// (its statements, history rows and commit I/O included): an upper bound. p50 and p99 over
/// `rounds` rounds (default 30); every round checks the merged results against a fresh fetch.
func runRemoteMergeScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 30))
    let dir = try benchDirectory()
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("remote-merge: \(n) results here, another process saves \(k) sort-key changes per round; \(rounds) rounds")
    // The main context runs on the main queue.
    runRoundsOffTheMainQueue(scenario: "remote-merge", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        try remoteMergeRounds(url: url, n: n, k: k, rounds: rounds)
    }
}

private func remoteMergeRounds(url: URL, n: Int, k: Int, rounds: Int) throws {
    let stack = try PersistentStack(model: indexedRowModel, storeURL: url)
    try measureRemoteMerge(name: "remote-merge", stack: stack, n: n, k: k, rounds: rounds) {
        try RemoteMergeWriterProcess(url: url, n: n, k: k)
    }
}

/// A controller for `request` on `context` (a main-queue context), fetched on the main queue
/// and reporting to `signal`; with the seconds its first fetch took.
func fetchedOnMainQueue(_ request: FetchRequest, context: ObjectContext,
                        signal: RemoteChangeSignal) throws -> (FetchedResultsController, Double) {
    try DispatchQueue.main.sync { () throws -> (FetchedResultsController, Double) in
        let controller = try FetchedResultsController(fetchRequest: request, context: context)
        let seconds = try measure { try controller.performFetch() }
        controller.delegate = signal
        return (controller, seconds)
    }
}

/// The rounds of `remote-merge` and `pg-remote-merge`: a controller over the n rows of
/// `stack` on its main context (the main queue, served by the main thread), the writer
/// process `startWriter` makes, and per round the time from the writer's commit to
/// `didChangeContent` here against re-running the fetch; prints both and the `name` ratios.
func measureRemoteMerge(name: String, stack: PersistentStack, n: Int, k: Int, rounds: Int,
                        startWriter: () throws -> RemoteMergeWriterProcess) throws {
    let request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    let signal = RemoteChangeSignal()
    let main = stack.mainContext
    let (controller, firstFetch) = try fetchedOnMainQueue(request, context: main, signal: signal)
    print("  first fetch here          n=\(n)  \(String(format: "%.3f", firstFetch)) s")
    let kinds = Mutex((merged: 0, external: 0))
    let observation = stack.addRemoteChangeObserver { change in
        kinds.withLock { if change.isExternal { $0.external += 1 } else { $0.merged += 1 } }
    }
    defer { observation.cancel() }
    let writer = try startWriter()
    defer { writer.stop() }
    var fromSaveStart: [Double] = [], refetch: [Double] = [], saving: [Double] = [], fromCommit: [Double] = []
    for _ in 0..<rounds {
        let save = try writer.commitRound()
        signal.arrived.wait()
        // The commit instant lies between the save's start and its return; the merge here can
        // end before the writer's save returns (its bookkeeping after the commit).
        guard signal.changed > save.committed, save.committed > save.started else {
            throw BenchError.check("the controller changed before the writer committed")
        }
        fromCommit.append(Double(signal.changed - save.committed) / 1e9)
        fromSaveStart.append(Double(signal.changed - save.started) / 1e9)
        saving.append(Double(save.returned - save.started) / 1e9)
        let merged = DispatchQueue.main.sync { controller.snapshot.items.first ?? [] }
        let fresh = try DispatchQueue.main.sync { try FetchedResultsController(fetchRequest: request, context: main) }
        refetch.append(try measure { try DispatchQueue.main.sync { try fresh.performFetch() } })
        let freshIDs = DispatchQueue.main.sync { fresh.snapshot.items.first ?? [] }
        guard freshIDs == merged, merged.count == n else { throw BenchError.check("merged results differ from a fresh fetch") }
    }
    func p(_ xs: [Double]) -> String {
        String(format: "p50 %.4f s  p99 %.4f s", percentile(xs, 0.5), percentile(xs, 0.99))
    }
    print("  writer's save (other proc) k=\(k)  \(p(saving))")
    print("  writer's commit → didChangeContent  k=\(k) n=\(n)  \(p(fromCommit))")
    print("  writer's save start → didChangeContent  \(p(fromSaveStart))  (upper bound: its statements and commit included)")
    let seen = kinds.withLock { $0 }
    print("  remote changes: \(seen.merged) merged from history, \(seen.external) re-fetched (external)")
    print("  re-run fetch               n=\(n)  \(p(refetch))")
    ratio(name, percentile(refetch, 0.5) / percentile(fromCommit, 0.5))
    ratio("\(name)-from-save-start", percentile(refetch, 0.5) / percentile(fromSaveStart, 0.5))
}

/// This binary in `remote-merge-writer` mode (`pg-remote-merge-writer` for PostgreSQL): one
/// round per line on its standard input.
final class RemoteMergeWriterProcess {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffer = Data()

    convenience init(url: URL, n: Int, k: Int) throws {
        try self.init(arguments: ["remote-merge-writer", "--n", "\(n)", "--k", "\(k)", "--store", url.path])
    }

    /// Starts this binary with `arguments` (a writer mode and its options).
    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Asks for one round; returns when the writer's save started, committed and returned
    /// (its clock, the same monotonic clock as this process's).
    func commitRound() throws -> (started: UInt64, committed: UInt64, returned: UInt64) {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let times = line.split(separator: " ").compactMap { UInt64($0) }
                guard times.count == 3 else { throw BenchError.check("writer: \(line)") }
                return (times[0], times[1], times[2])
            }
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw BenchError.check("the writer process ended") }
            buffer += more
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Mode `remote-merge-writer --n N --k K --store PATH`: for each line read, changes the sort
/// key of k random rows through an importer context of its own stack, saves, and prints the
/// monotonic times (ns) the save started, its commit became visible, and the save returned.
func runRemoteMergeWriter(_ arguments: [String]) throws {
    let (path, n, k) = try writerArguments(arguments, usage: "remote-merge-writer --n N --k K --store PATH")
    var options = PersistentStack.Options()
    options.storeURL = URL(fileURLWithPath: path)
    options.watchesRemoteChanges = false
    let stack = try PersistentStack(model: indexedRowModel, options: options)
    guard let store = stack.writerCoordinator.store as? SQLiteStore else { throw BenchError.check("not an SQLite store") }
    try serveWriterRounds(importer: stack.importerContext(), n: n, k: k) { store.lastCommitUptime }
}

/// A writer mode's `--key value` pairs.
func writerOptions(_ arguments: [String]) -> [String: String] {
    var values: [String: String] = [:]
    var index = 0
    while index + 1 < arguments.count {
        let key: String = String(arguments[index].dropFirst(2))
        let value: String = arguments[index + 1]
        values.updateValue(value, forKey: key)
        index += 2
    }
    return values
}

/// A writer mode's `--n N --k K --store STORE`.
func writerArguments(_ arguments: [String], usage: String) throws -> (store: String, n: Int, k: Int) {
    let values = writerOptions(arguments)
    guard let store = values["store"], let n = values["n"].flatMap({ Int($0) }), let k = values["k"].flatMap({ Int($0) }) else {
        throw BenchError.usage(usage)
    }
    return (store, n, k)
}

/// The writer modes' loop: for each line read, changes the sort key of k random rows (keys
/// 1...n) through `importer`, saves, and prints the monotonic times (ns) the save started, its
/// commit (`lastCommit`, read after the save) and the save returned.
func serveWriterRounds(importer: ObjectContext, n: Int, k: Int, lastCommit: () -> UInt64) throws {
    let a = AttributeKey<Int64>("a")
    var rng = SplitMix64(seed: 11)
    while readLine() != nil {
        let times = try importer.performAndWait { () -> (UInt64, UInt64, UInt64) in
            for _ in 0..<k {
                let row = importer.object(with: ObjectID(entityIndex: 0, primaryKey: Int64(1 + rng.below(n))))
                row[a] = Int64(rng.below(n)) * 2 + 1
            }
            let started = DispatchTime.now().uptimeNanoseconds
            try importer.save()
            let returned = DispatchTime.now().uptimeNanoseconds
            importer.reset()
            return (started, lastCommit(), returned)
        }
        // Unbuffered: the other process waits for this line.
        FileHandle.standardOutput.write(Data("\(times.0) \(times.1) \(times.2)\n".utf8))
    }
}
