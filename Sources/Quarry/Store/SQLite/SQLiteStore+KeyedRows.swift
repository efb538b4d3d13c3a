import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// ``keyedIDs(for:keyPaths:)``'s rows read straight from the cursor, one at a time: no
    /// array of all rows, and integer, double and string keys read without a ``Value``.
    /// A request restricted to a list of IDs goes through ``keyedIDs(for:keyPaths:)`` (it is
    /// queried in parts). A transformable key is decoded before its row is handed out, so
    /// that a value that cannot be read fails the pass (``ColumnDecodingError``).
    public func forEachKeyedRow(for request: StoreQuery, keyPaths: [String], _ body: (any KeyedRow) throws -> Void) throws {
        if request.restrictedTo != nil {
            for row in try keyedIDs(for: request, keyPaths: keyPaths) { try body(ValuesKeyedRow(id: row.id, keys: row.keys)) }
            return
        }
        var compiler = queryCompiler()
        let outputs = try keyPaths.map { try compiler.outputColumn($0, entity: request.entity) }
        let table = layout.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? Int32(table.entityIndices[0]) : nil
        let idColumns = single == nil ? ["t0.Z_PK", "t0.Z_ENT"] : ["t0.Z_PK"]
        let (sql, arguments) = try compiler.select(request, columns: idColumns + outputs.map(\.sql)).sql
        try read { db in
            try Self.withScanCache(db) {
                let statement = try db.cachedStatement(sql: sql)
                try statement.setArguments(arguments)
                let raw = SQLiteRawStatement(statement)
                defer { raw.reset() }
                let first = Int32(idColumns.count)
                if outputs.contains(where: { $0.type == .transformable }) {
                    // Rare (an order by a transformable value): each row's keys are decoded
                    // first, as a failure must end the pass and a row's reads cannot throw.
                    while try raw.step() {
                        let id = ObjectID(entityIndex: Int(single ?? Int32(truncatingIfNeeded: raw.int64(at: 1))), primaryKey: raw.int64(at: 0))
                        try body(ValuesKeyedRow(id: id, keys: try Self.keys(of: raw, outputs: outputs, first: first)))
                    }
                    return
                }
                let row = SQLiteKeyedRow(statement: raw, entity: single, firstKeyColumn: first, types: outputs.map(\.type))
                while try raw.step() { try body(row) }
            }
        }
    }

    /// The page cache, in KiB, of a connection while it reads keyed rows.
    static let scanCacheKiB = 256

    /// Runs `body` (a pass over many rows) with `db`'s page cache at ``scanCacheKiB``, then
    /// puts the connection's setting back.
    ///
    /// A pass over an index reads each page once, so SQLite's default cache (2 MB) would only
    /// fill with pages nobody reads again, and stay allocated: a fifth of the browser's heap
    /// once a million rows' index is built (`browse-resident` in BENCHMARKS.md). The few
    /// interior pages a pass does read again fit in the small cache.
    static func withScanCache<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let saved = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -\(scanCacheKiB)")
        // Best-effort: a setting not put back leaves the connection a smaller cache, never wrong rows.
        defer { try? db.execute(sql: "PRAGMA cache_size = \(saved)") }
        return try body()
    }
}

/// The current row of a keyed query's cursor (``SQLiteStore/forEachKeyedRow(for:keyPaths:_:)``),
/// read column by column as asked: valid until the cursor steps.
struct SQLiteKeyedRow: KeyedRow {
    let statement: SQLiteRawStatement
    /// The entity of every row (a table of one entity), or `nil`: read from the second column.
    let entity: Int32?
    /// The result column of key 0.
    let firstKeyColumn: Int32
    /// Each key's attribute type (`nil`: an integer, such as a to-one's key), never
    /// transformable (such keys are decoded before their row is handed out, as
    /// ``ValuesKeyedRow``s: see ``SQLiteStore/forEachKeyedRow(for:keyPaths:_:)``).
    let types: [AttributeType?]

    var primaryKey: Int64 { statement.int64(at: 0) }
    var entityIndex: Int32 { entity ?? Int32(truncatingIfNeeded: statement.int64(at: 1)) }

    func kind(ofKey k: Int) -> KeyedRowKind {
        let column = firstKeyColumn + Int32(k)
        if statement.isNull(at: column) { return .null }
        switch types[k] {
        case .integer16?, .integer32?, .integer64?, nil: return .integer
        case .double?, .float?: return .double
        case .string?: return .string
        default: return .other
        }
    }

    func int64(ofKey k: Int) -> Int64 { statement.int64(at: firstKeyColumn + Int32(k)) }

    func double(ofKey k: Int) -> Double { sqlite3_column_double(statement.handle, firstKeyColumn + Int32(k)) }

    func withUTF8<R>(ofKey k: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let column = firstKeyColumn + Int32(k)
        // The byte count, not the NUL terminator: strings may contain NUL.
        let start = sqlite3_column_text(statement.handle, column)
        let count = Int(sqlite3_column_bytes(statement.handle, column))
        return try body(UnsafeBufferPointer(start: start, count: start == nil ? 0 : count))
    }

    func value(ofKey k: Int) -> Value {
        let column = firstKeyColumn + Int32(k)
        guard let type = types[k] else { return statement.isNull(at: column) ? .null : .integer(statement.int64(at: column)) }
        return statement.scalarValue(at: column, type: type)
    }
}
