import Foundation
import GRDBSQLite
import Quarry

/// The six-attribute model with an index on `a`.
let indexedRowModel = rowModel(indexed: true)

/// A Quarry store of `n` rows of `indexedRowModel` (`a` shuffled), filled with raw inserts.
func makeIndexedRowStore(n: Int, url: URL) throws {
    _ = try SQLiteStore(url: url, model: indexedRowModel)
    let db = try RawDatabase(url: url)
    try db.exec("BEGIN IMMEDIATE")
    let insert = try db.prepare("INSERT INTO \"Row\" (Z_PK, Z_ENT, Z_OPT, a, b, c, d, e, f) VALUES (?, 0, 1, ?, ?, ?, ?, ?, ?)")
    var rng = SystemRandomNumberGenerator()
    var order = Array(0..<n)
    order.shuffle(using: &rng)
    for i in 0..<n {
        sqlite3_bind_int64(insert, 1, Int64(i + 1))
        sqlite3_bind_int64(insert, 2, Int64(order[i]))
        sqlite3_bind_double(insert, 3, Double(i) * 0.5)
        sqlite3_bind_text(insert, 4, "name-\(i)", -1, rawTransient)
        sqlite3_bind_int64(insert, 5, Int64(i & 1))
        sqlite3_bind_double(insert, 6, 700_000_000 + Double(i))
        sqlite3_bind_text(insert, 7, "category \(i % 97)", -1, rawTransient)
        guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError.sqlite(db.message) }
        sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    try db.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(n) WHERE Z_ROOT = 'Row'")
    try db.exec("COMMIT")
}

/// Scenario `fetch-ids`: the object IDs of 1,000,000 rows sorted by an indexed attribute,
/// through a context fetch vs the raw `SELECT rowid … ORDER BY` through SQLite.
func runFetchIDsScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = args.int("rounds", default: 3)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("rows.sqlite")
    try makeIndexedRowStore(n: n, url: url)
    print("fetch-ids: object IDs of \(n) rows sorted by an indexed attribute (best of \(rounds))")

    let coordinator = StoreCoordinator(store: try SQLiteStore(url: url, model: indexedRowModel))
    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "reader")
    let request = FetchRequest(entityName: "Row", sortDescriptors: [SortKey("a")])
    var quarry = Double.infinity
    var count = 0
    for _ in 0..<rounds {
        quarry = min(quarry, try measure { count = try context.performAndWait { try context.fetchObjectIDs(request) }.count })
    }
    guard count == n else { throw BenchError.check("quarry fetched \(count) IDs, expected \(n)") }

    let db = try RawDatabase(url: url)
    let select = try db.prepare("SELECT rowid FROM \"Row\" ORDER BY a")
    var raw = Double.infinity
    for _ in 0..<rounds {
        raw = min(raw, measure {
            var ids: [Int64] = []
            while sqlite3_step(select) == SQLITE_ROW { ids.append(sqlite3_column_int64(select, 0)) }
            sqlite3_reset(select)
            count = ids.count
        })
    }
    sqlite3_finalize(select)
    guard count == n else { throw BenchError.check("raw select read \(count) rows, expected \(n)") }
    report("quarry fetchObjectIDs", n: n, seconds: quarry)
    report("raw SELECT rowid", n: n, seconds: raw)
    ratio("fetch-ids", raw / quarry)
}

let rawTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A bare SQLite connection for the raw side of a benchmark.
final class RawDatabase {
    let handle: OpaquePointer

    init(url: URL) throws {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw BenchError.sqlite("cannot open \(url.path)") }
        handle = db
    }

    deinit { sqlite3_close(handle) }

    var message: String { String(cString: sqlite3_errmsg(handle)) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError.sqlite(message) }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw BenchError.sqlite(message) }
        return statement
    }
}
