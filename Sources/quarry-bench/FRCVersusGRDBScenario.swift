import Foundation
import GRDB
import GRDBSQLite
@_spi(Benchmarks) import Quarry
import QuarryDemo
import Synchronization

/// Scenario `frc-vs-grdb`: the same n tickers (default 1,000,000) sorted by symbol, observed
/// by GRDB 7's `ValueObservation` and by a Quarry `FetchedResultsController`; each round a
/// writer changes the symbols of the same k rows (default 1,000) on both sides and commits.
/// Timed per side: from the writer's commit (the instant SQLite's WAL hook reports it on the
/// writer's connection, both sides; GRDB's after the checkpoint SQLite runs inside `COMMIT`)
/// to GRDB's `onChange` receiving the new sorted array, and
/// to Quarry's `didChangeContent`, both delivered on the main queue. Each side has its own
/// copy of one seeded store (so neither sees the other's writes), the rounds alternate sides,
/// and every round checks both sides hold the same order. p50 and p99 over `rounds` rounds
/// (default 20); `ratio frc-vs-grdb` is GRDB's p50 over Quarry's.
func runFRCVersusGRDBScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 20))
    let dir = try benchDirectory()
    let quarryURL = dir.appendingPathComponent("quarry.sqlite")
    let grdbURL = dir.appendingPathComponent("grdb.sqlite")
    let seeding = try measure {
        try makeTickerStore(n: n, url: quarryURL)
        try FileManager.default.copyItem(at: quarryURL, to: grdbURL)
    }
    print("""
    frc-vs-grdb: \(n) tickers sorted by symbol; each round a writer changes the symbols of the same \(k) rows on both sides and commits; \(rounds) rounds, sides alternating
      GRDB 7:  a DatabasePool (WAL) on its copy of the store; ValueObservation.tracking { SELECT Z_PK, symbol FROM Ticker ORDER BY symbol } fetching [SortedTicker] (a FetchableRecord reading its two columns by index), started with scheduling: .async(onQueue: .main) (values on the main queue, as with GRDB's default main-actor scheduling); writer: one pool.write { \(k) × UPDATE Ticker SET symbol = ? WHERE Z_PK = ? } (a cached statement)
      Quarry:  a PersistentStack on its copy (history recorded; no remote-change watch: neither side watches other processes); a FetchedResultsController on the main context sorted by symbol; writer: an importerContext() sets \(k) symbols and saves, the stack's smart merge updates the controller
      timed:   from the writer's commit (SQLite's WAL hook on the writer connection, both sides; on GRDB's after the checkpoint SQLite runs in COMMIT from 1,000 log frames) to GRDB's onChange with the new sorted array / Quarry's didChangeContent, both on the main queue
      seeded \(n) rows with raw inserts (and copied the store) in \(String(format: "%.1f", seeding)) s
    """)
    // Both sides deliver on the main queue.
    runRoundsOffTheMainQueue(scenario: "frc-vs-grdb", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        try frcVersusGRDBRounds(quarryURL: quarryURL, grdbURL: grdbURL, n: n, k: k, rounds: rounds)
    }
}

private func frcVersusGRDBRounds(quarryURL: URL, grdbURL: URL, n: Int, k: Int, rounds: Int) throws {
    let grdb = try GRDBTickerObserver(url: grdbURL)
    let grdbFirst = try grdb.waitForValue()
    guard grdb.value.count == n else { throw BenchError.check("GRDB's first value holds \(grdb.value.count) rows, expected \(n)") }

    var options = PersistentStack.Options()
    options.storeURL = quarryURL
    options.watchesRemoteChanges = false
    let stack = try PersistentStack(model: tickerModel, options: options)
    guard let store = stack.writerCoordinator.store as? SQLiteStore else { throw BenchError.check("not an SQLite store") }
    let request = Quarry.FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
    let signal = RemoteChangeSignal()
    let (controller, quarryFirst) = try fetchedOnMainQueue(request, context: stack.mainContext, signal: signal)
    print("  first value: GRDB's initial fetch \(String(format: "%.3f", grdbFirst)) s, Quarry's performFetch \(String(format: "%.3f", quarryFirst)) s")
    try checkSameOrder(grdb: grdb, controller: controller, n: n)

    let importer = stack.importerContext()
    let symbol = AttributeKey<String>("symbol")
    var rng = SplitMix64(seed: 21)
    var renamed = 0
    var grdbTimes: [Double] = [], quarryTimes: [Double] = []
    for _ in 0..<rounds {
        // The same k changes for both sides; every new symbol is distinct, so the order has no ties.
        let changes = (0..<k).map { _ -> (key: Int64, symbol: String) in
            renamed += 1
            return (Int64(1 + rng.below(n)), "\(tickerSymbol(rng.below(tickerSymbolSpace))).\(renamed)")
        }
        grdbTimes.append(try grdb.commitAndWait(changes))

        try importer.performAndWait {
            for change in changes {
                importer.object(with: ObjectID(entityIndex: 0, primaryKey: change.key))[symbol] = change.symbol
            }
            try importer.save()
            importer.reset()
        }
        signal.arrived.wait()
        let committed = store.lastCommitUptime
        guard signal.changed > committed else { throw BenchError.check("the controller changed before the importer committed") }
        quarryTimes.append(Double(signal.changed - committed) / 1e9)
        try checkSameOrder(grdb: grdb, controller: controller, n: n)
    }
    func p(_ xs: [Double]) -> String {
        String(format: "p50 %.4f s  p99 %.4f s", percentile(xs, 0.5), percentile(xs, 0.99))
    }
    print("  GRDB commit → onChange (new sorted array)   k=\(k) n=\(n)  \(p(grdbTimes))")
    print("  Quarry commit → didChangeContent            k=\(k) n=\(n)  \(p(quarryTimes))")
    ratio("frc-vs-grdb", percentile(grdbTimes, 0.5) / percentile(quarryTimes, 0.5))
}

/// Checks GRDB's latest array and the controller list the same rows in the same order.
private func checkSameOrder(grdb: GRDBTickerObserver, controller: FetchedResultsController, n: Int) throws {
    let quarryKeys = DispatchQueue.main.sync { (controller.snapshot.items.first ?? []).map(\.primaryKey) }
    guard quarryKeys.count == n, quarryKeys == grdb.value.map(\.id) else {
        throw BenchError.check("GRDB's sorted rows and the controller's results differ")
    }
}

/// One row of GRDB's observed array: the primary key and the sort key, read by column index
/// (GRDB's fastest record decoding).
struct SortedTicker: FetchableRecord, Sendable {
    let id: Int64
    let symbol: String

    init(row: GRDB.Row) {
        id = row[0]
        symbol = row[1]
    }
}

/// The GRDB side of `frc-vs-grdb`: a pool, its observation of the sorted tickers, and the
/// commit instant its WAL hook reports.
final class GRDBTickerObserver: @unchecked Sendable {
    // `value`, `received` and `failure` are written on the main queue before `arrived` is
    // signalled and read by the rounds' thread after the wait.
    private(set) var value: [SortedTicker] = []
    private var received: UInt64 = 0
    private var failure: (any Error)?
    private let arrived = DispatchSemaphore(value: 0)
    private let commitClock: WALCommitClock
    private let pool: DatabasePool
    private var cancellable: AnyDatabaseCancellable?

    init(url: URL) throws {
        var configuration = GRDB.Configuration()
        let clock = WALCommitClock()
        commitClock = clock
        configuration.prepareDatabase { db in clock.install(on: db) }
        pool = try DatabasePool(path: url.path, configuration: configuration)
        let observation = ValueObservation.tracking { db in
            try SortedTicker.fetchAll(db, sql: "SELECT Z_PK, symbol FROM Ticker ORDER BY symbol")
        }
        cancellable = observation.start(in: pool, scheduling: .async(onQueue: .main), onError: { [unowned self] error in
            failure = error
            arrived.signal()
        }, onChange: { [unowned self] rows in
            received = DispatchTime.now().uptimeNanoseconds
            value = rows
            arrived.signal()
        })
    }

    deinit { cancellable?.cancel() }

    /// Waits for the next value; returns the seconds waited.
    func waitForValue() throws -> Double {
        let waited = measure { arrived.wait() }
        if let failure { throw failure }
        return waited
    }

    /// Writes `changes` in one transaction and waits for the observation's new array; returns
    /// the seconds from the commit to its arrival.
    func commitAndWait(_ changes: [(key: Int64, symbol: String)]) throws -> Double {
        try pool.write { db in
            let update = try db.cachedStatement(sql: "UPDATE Ticker SET symbol = ? WHERE Z_PK = ?")
            for change in changes { try update.execute(arguments: [change.symbol, change.key]) }
        }
        let committed = commitClock.lastCommit
        guard committed > 0 else { throw BenchError.check("GRDB's writer reported no commit") }
        // A value from before the commit is not this one: on an SQLite without snapshots the
        // observation fetches its first value twice (once more when it starts observing).
        repeat { _ = try waitForValue() } while received <= committed
        return Double(received - committed) / 1e9
    }
}

/// Notes each commit on a connection with a WAL hook (where Quarry's stores note theirs), and
/// keeps SQLite's automatic checkpoint, which a WAL hook of one's own replaces.
final class WALCommitClock: Sendable {
    private let committed = Atomic<UInt64>(0)

    /// When the last commit was written to the log and, when due, checkpointed (`DispatchTime`
    /// uptime nanoseconds).
    var lastCommit: UInt64 { committed.load(ordering: .acquiring) }

    /// Sets the hook on `db` (from the pool's `prepareDatabase`; the configuration holding the
    /// closure that holds `self` outlives every connection).
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, schema, frames in
            // What SQLite's default hook does (`sqlite3WalDefaultHook`): a passive checkpoint
            // once the log holds 1,000 frames, inside `COMMIT`. The clock starts after it, in
            // GRDB's favour: Quarry's stores checkpoint after the save instead.
            if frames >= 1000 { sqlite3_wal_checkpoint(connection, schema) }
            let clock = Unmanaged<WALCommitClock>.fromOpaque(context!).takeUnretainedValue()
            clock.committed.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The model of `frc-vs-grdb`: tickers with an indexed symbol and a price.
let tickerModel: ManagedObjectModel = {
    var b = ModelBuilder()
    b.entity("Ticker") { e in
        e.attribute("symbol", .string, indexed: true)
        e.attribute("price", .double)
    }
    return try! b.build()
}()

/// How many distinct five-letter symbols ``tickerSymbol(_:)`` makes (26⁵).
let tickerSymbolSpace = 26 * 26 * 26 * 26 * 26

/// The five capital letters numbering `i` (0 ..< ``tickerSymbolSpace``) in base 26.
func tickerSymbol(_ i: Int) -> String {
    var letters = [UInt8](repeating: UInt8(ascii: "A"), count: 5)
    var rest = i
    for position in (0..<5).reversed() {
        letters[position] += UInt8(rest % 26)
        rest /= 26
    }
    return String(decoding: letters, as: UTF8.self)
}

/// A Quarry store of `n` tickers of ``tickerModel`` (distinct symbols in shuffled order),
/// filled with raw inserts, its log checkpointed into the file so the file can be copied.
func makeTickerStore(n: Int, url: URL) throws {
    _ = try SQLiteStore(url: url, model: tickerModel)
    let db = try RawDatabase(url: url)
    try db.exec("BEGIN IMMEDIATE")
    let insert = try db.prepare("INSERT INTO Ticker (Z_PK, Z_ENT, Z_OPT, symbol, price) VALUES (?, 0, 1, ?, ?)")
    // Symbols spread over the whole space, in shuffled order: distinct, none sorted by key.
    let spacing = tickerSymbolSpace / max(n, 1)
    var order = Array(0..<n)
    var rng = SplitMix64(seed: 5)
    order.shuffle(using: &rng)
    for i in 0..<n {
        sqlite3_bind_int64(insert, 1, Int64(i + 1))
        sqlite3_bind_text(insert, 2, tickerSymbol(order[i] * spacing), -1, rawTransient)
        sqlite3_bind_double(insert, 3, 10 + Double(i % 10_000) / 100)
        guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError.sqlite(db.message) }
        sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    try db.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(n) WHERE Z_ROOT = 'Ticker'")
    try db.exec("COMMIT")
    try db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
}
