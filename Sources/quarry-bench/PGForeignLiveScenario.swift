import Foundation
import Quarry
import Synchronization

/// Scenario `pg-foreign-live`: a PostgreSQL table Quarry did not make (n rows, default
/// 1,000,000, made with `generate_series`), read as a schema Quarry did not make through a
/// read-only stack, its rows in a controller sorted by name (the browser's first query). Per
/// round another connection (libpq, as `psql` would) runs one `UPDATE` of k rows (default
/// 1,000); the time from that statement's return (its commit) to the controller's
/// `didChangeContent` here, through logical replication, one batched snapshot read and the
/// merge, against re-running the browser's query. The writing session commits synchronously,
/// as PostgreSQL does by default. p50 and p99 over `rounds` rounds (default
/// 10); every round checks the merged prices against the table. The schema and the
/// publication Quarry made for it are dropped at the end.
func runPGForeignLiveScenario(_ args: BenchArguments) throws {
    let server = try benchPostgreSQLServer("pg-foreign-live")
    let n = args.int("n", default: 1_000_000)
    let k = min(n, args.int("k", default: 1_000))
    let rounds = max(1, args.int("rounds", default: 10))
    let url = try benchPostgreSQLStoreURL(server: server, label: "bench_foreign")
    let raw = try RawPostgreSQLConnection(url)
    let schema = sqlQuotedIdentifier(url.schema)
    print("pg-foreign-live: \(n) rows in a table Quarry did not make, another connection updates \(k) per round; \(rounds) rounds; \(url.description)")
    let seeding = try measure {
        try raw.execute("CREATE SCHEMA \(schema)")
        try raw.execute("""
            CREATE TABLE \(schema).item (id bigint PRIMARY KEY, name text NOT NULL, price numeric(12,2), sector integer, \
            listed date, updated_at timestamptz)
            """)
        try raw.execute("""
            INSERT INTO \(schema).item SELECT g, 'item ' || lpad(((g::bigint * 7919) % \(n))::text, 8, '0'), (g % 100000) / 100.0, g % 97,
              date '2000-01-01' + g % 9000, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second'
            FROM generate_series(1, \(n)) g
            """)
        try raw.execute("CREATE INDEX ON \(schema).item (name)")
        try raw.execute("ANALYZE \(schema).item")
    }
    print("  made the table with generate_series in \(String(format: "%.1f", seeding)) s")
    let cleanUp: @Sendable () -> Void = {
        // Best effort: a failed drop leaves a schema on the throwaway server only.
        guard let raw = try? RawPostgreSQLConnection(url) else { return }
        _ = try? raw.execute("DROP SCHEMA \(schema) CASCADE")
        _ = try? raw.execute("DROP PUBLICATION IF EXISTS \(sqlQuotedIdentifier("quarry_" + url.schema))")
    }
    runRoundsOffTheMainQueue(scenario: "pg-foreign-live", cleanUp: cleanUp) {
        try pgForeignLiveRounds(url: url, n: n, k: k, rounds: rounds)
    }
}

/// `name` as a quoted SQL identifier.
private func sqlQuotedIdentifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

private func pgForeignLiveRounds(url: PostgreSQLStoreURL, n: Int, k: Int, rounds: Int) throws {
    let probe = try PostgreSQLStore(url: url, model: nil, options: .init(readOnly: true))
    let model = probe.model
    probe.close()
    var options = PersistentStack.Options()
    options.storeURL = URL(string: url.description)
    options.storeType = .postgreSQL
    options.readOnly = true
    let stack = try PersistentStack(model: model, options: options)
    guard stack.watchesRemoteChanges else { throw BenchError.check("the stack does not follow the table") }
    var request = FetchRequest(entityName: "item", sortDescriptors: [SortKey("name")])
    request.fetchBatchSize = 50
    let signal = RemoteChangeSignal()
    let main = stack.mainContext
    let (controller, firstFetch) = try fetchedOnMainQueue(request, context: main, signal: signal)
    print("  first fetch here          n=\(n)  \(String(format: "%.3f", firstFetch)) s")
    let errors = Mutex([String]())
    let observation = stack.addRemoteChangeObserver { change in
        if let error = change.error { errors.withLock { $0.append("\(error)") } }
    }
    defer { observation.cancel() }
    let writer = try RawPostgreSQLConnection(url)
    // As psql on a server with PostgreSQL's defaults: the commit is flushed before it returns.
    // (The throwaway server turns synchronous_commit off for the tests' speed; a walsender
    // streams only flushed WAL, so there it would wait for the WAL writer, up to 200 ms.)
    try writer.execute("SET synchronous_commit = on")
    let schema = sqlQuotedIdentifier(url.schema)
    var fromCommit: [Double] = [], refetch: [Double] = [], statement: [Double] = []
    var rng = SystemRandomNumberGenerator()
    for round in 0..<rounds {
        let first = Int.random(in: 1...(n - k + 1), using: &rng)
        let started = DispatchTime.now().uptimeNanoseconds
        try writer.execute("UPDATE \(schema).item SET price = price + 1 WHERE id BETWEEN \(first) AND \(first + k - 1)")
        let committed = DispatchTime.now().uptimeNanoseconds
        signal.arrived.wait()
        if let error = errors.withLock({ $0.first }) { throw BenchError.check("round \(round): \(error)") }
        guard signal.changed > started else { throw BenchError.check("the controller changed before the update") }
        // The commit's instant lies before the statement returned; a merge that ends earlier
        // counts as instant.
        fromCommit.append(Double(signal.changed > committed ? signal.changed - committed : 0) / 1e9)
        statement.append(Double(committed - started) / 1e9)
        // The merged rows hold the new prices: every updated row, read through the context.
        let expected = try writer.execute("SELECT sum(price) FROM \(schema).item WHERE id BETWEEN \(first) AND \(first + k - 1)")
        let merged = try DispatchQueue.main.sync { () throws -> String in
            var total = Decimal(0)
            let updated = try main.fetch(FetchRequest(entityName: "item", predicate: try ObjectPredicate(format: "id >= %@ AND id <= %@", .value(.integer(Int64(first))), .value(.integer(Int64(first + k - 1))))))
            for object in updated { if case .decimal(let d) = try object.value(forKey: "price") { total += d.decimal } }
            return "\(total)"
        }
        guard let sum = expected, Decimal(string: sum) == Decimal(string: merged) else {
            throw BenchError.check("round \(round): merged prices sum to \(merged), the table's to \(expected ?? "nil")")
        }
        let fresh = try DispatchQueue.main.sync { try FetchedResultsController(fetchRequest: request, context: main) }
        refetch.append(try measure { try DispatchQueue.main.sync { try fresh.performFetch() } })
        let count = DispatchQueue.main.sync { (fresh.snapshot.items.first ?? []).count == (controller.snapshot.items.first ?? []).count }
        guard count else { throw BenchError.check("round \(round): the merged results differ in size from a fresh fetch") }
    }
    func p(_ xs: [Double]) -> String { String(format: "p50 %.4f s  p99 %.4f s", percentile(xs, 0.5), percentile(xs, 0.99)) }
    print("  the UPDATE (other session)  k=\(k)  \(p(statement))")
    print("  commit → didChangeContent   k=\(k) n=\(n)  \(p(fromCommit))")
    print("  re-run the browser's query  n=\(n)  \(p(refetch))")
    ratio("pg-foreign-live", percentile(refetch, 0.5) / max(percentile(fromCommit, 0.5), 1e-6))
}
