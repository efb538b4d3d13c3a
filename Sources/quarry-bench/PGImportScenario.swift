import Foundation
import Quarry

/// Scenario `pg-import`: 100,000 objects through an importer context on a `PostgreSQLStore`
/// (saves every 5,000, the `import` scenario's path) vs raw libpq: one binary
/// `COPY … FROM STDIN` per 5,000 rows, each in its own transaction (the ratio), and, beside it,
/// the old baseline, one prepared `INSERT` per row with `BEGIN`/`COMMIT` around each 5,000.
/// Each side writes a fresh schema per round (best of `rounds`, sides interleaved), dropped
/// afterwards.
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
    var quarry = Double.infinity, copy = Double.infinity, prepared = Double.infinity
    for _ in 0..<rounds {
        quarry = min(quarry, try postgreSQLQuarryImport(n: n, chunk: chunk, data: data, url: try benchPostgreSQLStoreURL(server: server, label: "bench_import")))
        copy = min(copy, try postgreSQLRawImport(n: n, chunk: chunk, data: data, copying: true, url: try benchPostgreSQLStoreURL(server: server, label: "bench_copy")))
        prepared = min(prepared, try postgreSQLRawImport(n: n, chunk: chunk, data: data, copying: false, url: try benchPostgreSQLStoreURL(server: server, label: "bench_raw")))
    }
    print("  (best of \(rounds) rounds per side)")
    report("quarry importer (pg)", n: n, seconds: quarry)
    report("raw libpq binary COPY", n: n, seconds: copy)
    report("raw libpq prepared", n: n, seconds: prepared)
    ratio("pg-import", copy / quarry)
    ratio("pg-import-vs-prepared", prepared / quarry)
}

/// Seconds to import `n` rows through an importer context saving every `chunk`, into a new
/// PostgreSQL store at `url` (dropped afterwards).
private func postgreSQLQuarryImport(n: Int, chunk: Int, data: RowData, url: PostgreSQLStoreURL) throws -> Double {
    defer { try? PostgreSQLStore.destroy(url: url) }
    let store = try PostgreSQLStore(url: url, model: sixAttributeModel)
    defer { store.close() }
    return try timedImport(into: store, n: n, chunk: chunk, data: data)
}

/// Seconds to insert `n` rows in transactions of `chunk` (by binary `COPY` when `copying`, else
/// one prepared insert per row), into a table like the store's (without its extras) in a new
/// schema of `url`'s server.
private func postgreSQLRawImport(n: Int, chunk: Int, data: RowData, copying: Bool, url: PostgreSQLStoreURL) throws -> Double {
    let connection = try RawPostgreSQLConnection(url)
    do {
        try connection.execute("CREATE SCHEMA \"\(url.schema)\"")
        try connection.execute("""
            CREATE TABLE "Row" ("Z_PK" bigint PRIMARY KEY, "Z_ENT" bigint NOT NULL, "Z_OPT" bigint NOT NULL,
            "a" bigint, "b" double precision, "c" text COLLATE "C", "d" bigint, "e" double precision, "f" text COLLATE "C")
            """)
        try connection.prepare("row", #"INSERT INTO "Row" ("Z_PK", "Z_ENT", "Z_OPT", "a", "b", "c", "d", "e", "f") VALUES ($1, 1, 1, $2, $3, $4, $5, $6, $7)"#)
        let start = DispatchTime.now().uptimeNanoseconds
        var i = 0
        while i < n {
            let end = min(n, i + chunk)
            try connection.execute("BEGIN")
            if copying {
                var rows = RawCopyRows()
                for k in i..<end {
                    rows.row(fields: 9)
                    rows.field(Int64(k + 1)); rows.field(Int64(1)); rows.field(Int64(1))
                    rows.field(data.a[k]); rows.field(data.b[k]); rows.field(data.c[k]); rows.field(Int64(data.d[k] ? 1 : 0))
                    rows.field(data.e[k].timeIntervalSinceReferenceDate); rows.field(data.f[k])
                }
                try connection.copyIn(#"COPY "Row" ("Z_PK", "Z_ENT", "Z_OPT", "a", "b", "c", "d", "e", "f") FROM STDIN (FORMAT binary)"#, rows.finished())
            } else {
                for k in i..<end {
                    try connection.executePrepared("row", [
                        String(k + 1), String(data.a[k]), "\(data.b[k])", data.c[k], data.d[k] ? "1" : "0",
                        "\(data.e[k].timeIntervalSinceReferenceDate)", data.f[k]])
                }
            }
            try connection.execute("COMMIT")
            i = end
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let stored = Int(try connection.execute(#"SELECT count(*) FROM "Row""#) ?? "") ?? 0
        guard stored == n else { throw BenchError.check("the raw side stored \(stored) rows, expected \(n)") }
        try connection.execute("DROP SCHEMA \"\(url.schema)\" CASCADE")
        return seconds
    } catch {
        _ = try? connection.execute("DROP SCHEMA IF EXISTS \"\(url.schema)\" CASCADE")
        throw error
    }
}
