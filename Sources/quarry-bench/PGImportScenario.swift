#if PostgreSQL
import Foundation
import PostgresNIO
import Quarry

/// Scenario `pg-import`: 100,000 objects through an importer context on a `PostgreSQLStore`
/// (saves every 5,000, the `import` scenario's path) vs raw PostgresNIO: one prepared
/// `INSERT` per row on one connection, `BEGIN`/`COMMIT` around each 5,000. Each side writes a
/// fresh schema per round (best of `rounds`, sides interleaved), dropped afterwards.
///
/// The raw table has the same data columns (`bigint`, `double precision`, `text`) but none of
/// the store's extras: folded shadow columns of the text attributes, history rows, the
/// modification token; like `import`'s raw SQLite side, it is the floor Quarry is held to.
func runPGImportScenario(_ args: BenchArguments) throws {
    let server = try benchPostgreSQLServer("pg-import")
    let n = args.int("n", default: 100_000)
    let chunk = args.int("chunk", default: 5_000)
    let rounds = args.int("rounds", default: 3)
    let data = RowData(count: n)
    print("pg-import: \(n) objects of a 6-attribute entity, transactions of \(chunk), server \(try PostgreSQLStoreURL(parsing: server).description)")
    var quarry = Double.infinity, raw = Double.infinity
    for _ in 0..<rounds {
        quarry = min(quarry, try postgreSQLQuarryImport(n: n, chunk: chunk, data: data, url: try benchPostgreSQLStoreURL(server: server, label: "bench_import")))
        raw = min(raw, try postgreSQLRawImport(n: n, chunk: chunk, data: data, url: try benchPostgreSQLStoreURL(server: server, label: "bench_raw")))
    }
    print("  (best of \(rounds) rounds per side)")
    report("quarry importer (pg)", n: n, seconds: quarry)
    report("raw PostgresNIO prepared", n: n, seconds: raw)
    ratio("pg-import", raw / quarry)
}

/// Seconds to import `n` rows through an importer context saving every `chunk`, into a new
/// PostgreSQL store at `url` (dropped afterwards).
private func postgreSQLQuarryImport(n: Int, chunk: Int, data: RowData, url: PostgreSQLStoreURL) throws -> Double {
    defer { try? PostgreSQLStore.destroy(url: url) }
    let store = try PostgreSQLStore(url: url, model: sixAttributeModel)
    defer { store.close() }
    return try timedImport(into: store, n: n, chunk: chunk, data: data)
}

/// One row of the raw side, as a prepared statement (parsed once per connection, then bound
/// and executed per row).
private struct RawRowInsert: PostgresPreparedStatement {
    static let sql = #"INSERT INTO "Row" ("Z_PK", "Z_ENT", "Z_OPT", "a", "b", "c", "d", "e", "f") VALUES ($1, 1, 1, $2, $3, $4, $5, $6, $7)"#
    typealias Row = ()
    var pk: Int64, a: Int64, b: Double, c: String, d: Int64, e: Double, f: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(pk); bindings.append(a); bindings.append(b); bindings.append(c)
        bindings.append(d); bindings.append(e); bindings.append(f)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

/// Seconds to insert `n` rows with raw prepared inserts in transactions of `chunk`, into a
/// table like the store's (without its extras) in a new schema of `url`'s server.
private func postgreSQLRawImport(n: Int, chunk: Int, data: RowData, url: PostgreSQLStoreURL) throws -> Double {
    let seconds = try runBlocking { () async throws -> Double in
        let connection = try await rawPostgreSQLConnection(url)
        do {
            try await rawExecute(connection, "CREATE SCHEMA \"\(url.schema)\"")
            try await rawExecute(connection, """
                CREATE TABLE "Row" ("Z_PK" bigint PRIMARY KEY, "Z_ENT" bigint NOT NULL, "Z_OPT" bigint NOT NULL,
                "a" bigint, "b" double precision, "c" text COLLATE "C", "d" bigint, "e" double precision, "f" text COLLATE "C")
                """)
            let start = DispatchTime.now().uptimeNanoseconds
            var i = 0
            while i < n {
                let end = min(n, i + chunk)
                try await rawExecute(connection, "BEGIN")
                for k in i..<end {
                    _ = try await connection.execute(RawRowInsert(
                        pk: Int64(k + 1), a: data.a[k], b: data.b[k], c: data.c[k], d: data.d[k] ? 1 : 0,
                        e: data.e[k].timeIntervalSinceReferenceDate, f: data.f[k]), logger: rawLogger)
                }
                try await rawExecute(connection, "COMMIT")
                i = end
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let counted = try await connection.query(#"SELECT count(*) FROM "Row""#, logger: rawLogger)
            var stored = 0
            for try await (count) in counted.decode(Int.self) { stored = count }
            guard stored == n else { throw BenchError.check("the raw side stored \(stored) rows, expected \(n)") }
            try await rawExecute(connection, "DROP SCHEMA \"\(url.schema)\" CASCADE")
            try await connection.close()
            return seconds
        } catch {
            try? await rawExecute(connection, "DROP SCHEMA IF EXISTS \"\(url.schema)\" CASCADE")
            try? await connection.close()
            throw error
        }
    }
    return seconds
}
#endif
