import Foundation
@_spi(Benchmarks) import Quarry
import QuarryDemo

/// Scenario `pg-remote-merge`: the `remote-merge` scenario across a PostgreSQL server. n
/// results (default 1,000,000) in a controller on this process's main context, its stack on a
/// `PostgreSQLStore`; a second process (this binary in `pg-remote-merge-writer` mode, with its
/// own store and connections, as on another host) saves k sort-key changes per round; the time
/// from the writer's `COMMIT` (the store's `lastCommitUptime`, on the system's monotonic clock,
/// the same as ours) to the controller's `didChangeContent` here, through `NOTIFY`/`LISTEN`,
/// the history rows and one batched snapshot read, against re-running the fetch. p50 and p99
/// over `rounds` rounds (default 10); every round checks the merged results against a fresh
/// fetch. The rows are seeded with the store's batch insert; the schema is dropped at the end.
func runPGRemoteMergeScenario(_ args: BenchArguments) throws {
    let server = try benchPostgreSQLServer("pg-remote-merge")
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 10))
    let (url, text) = try pgRemoteMergeStore(server: server)
    print("pg-remote-merge: \(n) results here, another process saves \(k) sort-key changes per round; \(rounds) rounds; \(url.description)")
    let seeding = try measure { try seedIndexedRows(n: n, url: url) }
    print("  seeded \(n) rows with batch inserts in \(String(format: "%.1f", seeding)) s")
    // The main context runs on the main queue.
    runRoundsOffTheMainQueue(scenario: "pg-remote-merge", cleanUp: { try? PostgreSQLStore.destroy(url: url) }) {
        try pgRemoteMergeRounds(url: text, n: n, k: k, rounds: rounds)
    }
}

/// A new store URL on `server` (parsed, and as text for stack options and the writer's
/// command line: it keeps any password the server URL carries).
func pgRemoteMergeStore(server: String) throws -> (PostgreSQLStoreURL, String) {
    let text = server + (server.contains("?") ? "&" : "?") + "schema=bench_merge_\(UUID().uuidString.prefix(8).lowercased())"
    return (try PostgreSQLStoreURL(parsing: text), text)
}

/// Fills a new store at `url` with `n` rows of `indexedRowModel` (`a` a shuffled 0..<n, the
/// `remote-merge` scenario's data) through the coordinator's batch insert, 20,000 rows per
/// transaction, then prunes the seeding's history; checks the rows got the keys 1...n the
/// writer addresses them by.
func seedIndexedRows(n: Int, url: PostgreSQLStoreURL) throws {
    let store = try PostgreSQLStore(url: url, model: indexedRowModel)
    defer { store.close() }
    let coordinator = StoreCoordinator(store: store, name: "seeder")
    var rng = SplitMix64(seed: 5)
    var order = Array(0..<n)
    order.shuffle(using: &rng)
    let chunk = 20_000
    var keys: (min: Int64, max: Int64, count: Int) = (.max, .min, 0)
    var i = 0
    while i < n {
        let end = min(n, i + chunk)
        var request = BatchInsertRequest(entityName: "Row", attributes: ["a", "b", "c", "d", "e", "f"])
        request.reserveCapacity(end - i)
        for r in i..<end {
            request.append([.integer(Int64(order[r])), .double(Double(r) * 0.5), .string("name-\(r)"), .bool(r & 1 == 1),
                            .date(Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(r))), .string("category \(r % 97)")])
        }
        let saved = try coordinator.batchInsert(request)
        for id in saved.inserted {
            keys = (min(keys.min, id.primaryKey), max(keys.max, id.primaryKey), keys.count + 1)
        }
        i = end
    }
    guard keys.count == n, keys.min == 1, keys.max == Int64(n) else {
        throw BenchError.check("seeding gave keys \(keys.min)...\(keys.max) to \(keys.count) rows, expected 1...\(n)")
    }
    if let token = try store.currentHistoryToken() { _ = try store.deleteHistory(before: token) }
}

private func pgRemoteMergeRounds(url: String, n: Int, k: Int, rounds: Int) throws {
    // `.postgreSQL` (pg-live's stack wiring); looked up by name so this file builds on branches
    // without it and says why it cannot run there.
    guard let storeType = PersistentStack.StoreType(rawValue: "postgreSQL") else {
        throw BenchError.check("this build's PersistentStack has no PostgreSQL store type")
    }
    var options = PersistentStack.Options()
    options.storeURL = URL(string: url)
    options.storeType = storeType
    let stack = try PersistentStack(model: indexedRowModel, options: options)
    try measureRemoteMerge(name: "pg-remote-merge", stack: stack, n: n, k: k, rounds: rounds) {
        try RemoteMergeWriterProcess(arguments: ["pg-remote-merge-writer", "--n", "\(n)", "--k", "\(k)", "--store", url])
    }
}

/// Mode `pg-remote-merge-writer --n N --k K --store URL`: for each line read, changes the sort
/// key of k random rows through an importer context on its own `PostgreSQLStore`, saves, and
/// prints the monotonic times (ns) the save started, its `COMMIT` returned, and the save
/// returned.
func runPGRemoteMergeWriter(_ arguments: [String]) throws {
    let (text, n, k) = try writerArguments(arguments, usage: "pg-remote-merge-writer --n N --k K --store postgres://…")
    let store = try PostgreSQLStore(url: try PostgreSQLStoreURL(parsing: text), model: indexedRowModel)
    defer { store.close() }
    let importer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "writer"), name: "importer")
    try serveWriterRounds(importer: importer, n: n, k: k) { store.lastCommitUptime }
}
