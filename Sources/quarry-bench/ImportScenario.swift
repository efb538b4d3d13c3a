import Foundation
import GRDB
import GRDBSQLite
import Quarry

/// The benchmark's six-attribute entity, as a typed Quarry class with typed keys (the
/// documented fast path for hot loops). Confined to its context's queue, as every managed
/// object is (the conformance ManagedObject declares, restated).
final class BenchRow: ManagedObject, @unchecked Sendable {
    override class var entityName: String { "Row" }
    static let a = AttributeKey<Int64>("a")
    static let b = AttributeKey<Double>("b")
    static let c = AttributeKey<String>("c")
    static let d = AttributeKey<Bool>("d")
    static let e = AttributeKey<Date>("e")
    static let f = AttributeKey<String>("f")
}

/// The same row as a GRDB record.
struct GRDBRow: PersistableRecord, Encodable {
    static let databaseTableName = "Row"
    var Z_ENT: Int64 = 0
    var Z_OPT: Int64 = 1
    var a: Int64, b: Double, c: String, d: Bool, e: Double, f: String
}

/// Deterministic row values shared by every side.
struct RowData {
    let a: [Int64], b: [Double], c: [String], d: [Bool], e: [Date], f: [String]

    init(count n: Int) {
        a = (0..<n).map { Int64($0) }
        b = (0..<n).map { Double($0) * 0.25 }
        c = (0..<n).map { "name-\($0)" }
        d = (0..<n).map { $0 % 3 == 0 }
        e = (0..<n).map { Date(timeIntervalSinceReferenceDate: 700_000_000 + Double($0)) }
        f = (0..<n).map { "category \($0 % 97)" }
    }
}

/// The benchmarks' six-attribute entity `Row`, optionally with an index on `a`.
func rowModel(indexed: Bool) -> ManagedObjectModel {
    var b = ModelBuilder()
    b.entity("Row") { e in
        e.attribute("a", .integer64, indexed: indexed)
        e.attribute("b", .double)
        e.attribute("c", .string)
        e.attribute("d", .boolean)
        e.attribute("e", .date)
        e.attribute("f", .string)
    }
    return try! b.build()
}

let sixAttributeModel = rowModel(indexed: false)

/// Scenario `import`: 100,000 objects through an importer context (saves every 5,000) vs raw
/// prepared INSERTs and GRDB record inserts in transactions of the same size; then the
/// Quarry side again at 1,000,000 for the scaling figure.
func runImportScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 100_000)
    let big = args.int("scale", default: 1_000_000)
    let chunk = args.int("chunk", default: 5_000)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = RowData(count: max(n, big))

    print("import: \(n) objects of a 6-attribute entity, transactions of \(chunk)")
    if args.int("profile", default: 0) > 0 {
        // Quarry side only, for profilers.
        report("quarry importer", n: n, seconds: try quarryImport(n: n, chunk: chunk, data: data, url: dir.appendingPathComponent("p.sqlite")))
        return
    }
    // Best of `rounds` per side, each round into a fresh file, sides interleaved.
    let rounds = args.int("rounds", default: 3)
    var quarry = Double.infinity, raw = Double.infinity, grdb = Double.infinity
    for r in 0..<rounds {
        quarry = min(quarry, try quarryImport(n: n, chunk: chunk, data: data, url: dir.appendingPathComponent("quarry\(r).sqlite")))
        raw = min(raw, try rawImport(n: n, chunk: chunk, data: data, url: dir.appendingPathComponent("raw\(r).sqlite")))
        grdb = min(grdb, try grdbImport(n: n, chunk: chunk, data: data, url: dir.appendingPathComponent("grdb\(r).sqlite")))
    }
    print("  (best of \(rounds) rounds per side)")
    report("quarry importer", n: n, seconds: quarry)
    report("raw prepared INSERT", n: n, seconds: raw)
    report("GRDB record insert", n: n, seconds: grdb)
    ratio("import", raw / quarry)
    ratio("import-vs-grdb", grdb / quarry)

    let scaled = try quarryImport(n: big, chunk: chunk, data: data, url: dir.appendingPathComponent("quarry-big.sqlite"))
    report("quarry importer", n: big, seconds: scaled)
    ratio("import-scaling", (quarry / Double(n)) / (scaled / Double(big)))
}

/// Seconds to import `n` rows through an importer context saving every `chunk`, into a new
/// store at `url` (recording persistent history or not).
func quarryImport(n: Int, chunk: Int, data: RowData, url: URL, recordsHistory: Bool = true) throws -> Double {
    let store = try SQLiteStore(url: url, model: sixAttributeModel, options: .init(recordsHistory: recordsHistory))
    return try timedImport(into: store, n: n, chunk: chunk, data: data)
}

/// Seconds to import `n` rows into `store` through an importer context of its own, saving
/// every `chunk` (the `import` and `pg-import` scenarios' Quarry side); checks the count.
/// With `undoManager` the context records the import for undo (the `undo-cost` scenario).
func timedImport(into store: any PersistentStore, n: Int, chunk: Int, data: RowData, undoManager: Bool = false) throws -> Double {
    let coordinator = StoreCoordinator(store: store, name: "writer")
    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "importer")
    if undoManager { context.performAndWait { context.undoManager = ContextUndoManager() } }
    let seconds = try measure {
        try context.performAndWait {
            var i = 0
            while i < n {
                let end = min(n, i + chunk)
                for k in i..<end {
                    let row = try context.insert(BenchRow.self)
                    row[BenchRow.a] = data.a[k]; row[BenchRow.b] = data.b[k]; row[BenchRow.c] = data.c[k]
                    row[BenchRow.d] = data.d[k]; row[BenchRow.e] = data.e[k]; row[BenchRow.f] = data.f[k]
                }
                try context.save()
                i = end
            }
        }
    }
    let stored = try context.performAndWait { try context.count(ofEntity: "Row") }
    guard stored == n else { throw BenchError.check("quarry stored \(stored) rows, expected \(n)") }
    return seconds
}

private let createRowTable = """
    CREATE TABLE "Row" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER NOT NULL, Z_OPT INTEGER NOT NULL,
    "a" INTEGER, "b" REAL, "c" TEXT, "d" INTEGER, "e" REAL, "f" TEXT)
    """

private func rawImport(n: Int, chunk: Int, data: RowData, url: URL) throws -> Double {
    let db = try RawDatabase(url: url)
    // Same settings as GRDB's DatabasePool under the Quarry store.
    try db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    try db.exec(createRowTable)
    let stmt = try db.prepare("INSERT INTO \"Row\" (Z_ENT, Z_OPT, a, b, c, d, e, f) VALUES (0, 1, ?, ?, ?, ?, ?, ?)")
    defer { sqlite3_finalize(stmt) }
    return try measure {
        var i = 0
        while i < n {
            let end = min(n, i + chunk)
            try db.exec("BEGIN IMMEDIATE")
            for k in i..<end {
                sqlite3_bind_int64(stmt, 1, data.a[k])
                sqlite3_bind_double(stmt, 2, data.b[k])
                sqlite3_bind_text(stmt, 3, data.c[k], -1, rawTransient)
                sqlite3_bind_int64(stmt, 4, data.d[k] ? 1 : 0)
                sqlite3_bind_double(stmt, 5, data.e[k].timeIntervalSinceReferenceDate)
                sqlite3_bind_text(stmt, 6, data.f[k], -1, rawTransient)
                guard sqlite3_step(stmt) == SQLITE_DONE else { throw BenchError.sqlite(db.message) }
                sqlite3_reset(stmt)
            }
            try db.exec("COMMIT")
            i = end
        }
    }
}

private func grdbImport(n: Int, chunk: Int, data: RowData, url: URL) throws -> Double {
    let pool = try DatabasePool(path: url.path)
    try pool.write { try $0.execute(sql: createRowTable) }
    return try measure {
        var i = 0
        while i < n {
            let end = min(n, i + chunk)
            try pool.write { db in
                for k in i..<end {
                    try GRDBRow(a: data.a[k], b: data.b[k], c: data.c[k], d: data.d[k],
                                e: data.e[k].timeIntervalSinceReferenceDate, f: data.f[k]).insert(db)
                }
            }
            i = end
        }
    }
}
