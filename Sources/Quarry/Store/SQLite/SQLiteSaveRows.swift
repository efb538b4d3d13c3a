import GRDB
import GRDBSQLite

/// The SQLite rows of one save of an ``SQLiteStore``, for the shared save template
/// (``SQLSaveOperation/run(_:rows:)``), inside the save's `IMMEDIATE` transaction on the
/// writer connection: keys from `Z_PRIMARYKEY`, one cached prepared statement per statement
/// shape, values bound straight from snapshots. New rows go up to ``insertRowsPerStatement``
/// a statement (a run is written by statements of 64, 32, …, 1 rows, so an entity needs at
/// most seven statement texts); updates and deletes go one row a statement.
///
/// Not thread-safe and never shared: it lives for one call of ``SQLiteStore/save(_:resolve:)``.
final class SQLiteSaveRows: SQLSaveRows {
    let db: Database
    private let layout: StoreLayout
    private let statements: SQLiteRowStatements
    private let reader: SQLiteRowReader
    /// Per update shape (``SQLUpdateShape/id``), its statement's text.
    private var updateSQL: [String?] = []
    /// Per entity and power of two `p`, the text inserting `1 << p` rows (built on first use).
    private var insertSQL: [Int: String] = [:]
    /// The most host parameters one statement may bind on this connection.
    private let parameterLimit: Int

    /// The most new rows one insert statement writes (a power of two). SQLite's per-statement
    /// work (starting the program, opening its cursors, ending it) is then paid once for many
    /// rows: with the rows of a save written `OR FAIL`, 100,000 inserts into the demo's indexed
    /// `Ticker` table took 0.34–0.39 s 40 a statement against 0.41–0.58 s one a statement
    /// (BENCHMARKS.md, `demo-first-screen-fresh`).
    static let insertRowsPerStatement = 64

    init(store: SQLiteStore, db: Database) {
        layout = store.layout
        statements = store.statements
        reader = store.rowReader
        self.db = db
        parameterLimit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }

    /// Reserves a block of keys in `Z_PRIMARYKEY`.
    func allocateKeys(_ count: Int64, table: Int) throws -> [Int64] {
        let name = layout.tables[table].name
        let max = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ROOT = ?", arguments: [name]) ?? 0
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ROOT = ?", arguments: [max + count, name])
        return Array(max + 1...max + count)
    }

    /// ``insertRowsPerStatement`` rows, halved until the entity's columns fit the connection's
    /// parameter limit: always a power of two.
    func maxInsertRun(entity e: Int) -> Int {
        let perRow = 3 + statements.insert[e].slots.count
        var rows = Self.insertRowsPerStatement
        while rows > 1, rows * perRow > parameterLimit { rows /= 2 }
        return rows
    }

    /// Writes `run` (at most ``maxInsertRun(entity:)`` rows) in statements of 64, 32, …, 1
    /// rows, the widest first.
    func insertRows(_ run: ArraySlice<ObjectChange>, entity e: Int) throws {
        let slots = statements.insert[e].slots
        var start = run.startIndex
        while start < run.endIndex {
            // The largest power of two rows left.
            let power = Int.bitWidth - 1 - (run.endIndex - start).leadingZeroBitCount
            let end = start + (1 << power)
            let statement = SQLiteRawStatement(try db.cachedStatement(sql: insertText(entity: e, power: power)))
            var index: Int32 = 1
            for change in run[start..<end] {
                statement.bind(change.id.primaryKey, at: index)
                statement.bind(Int64(e), at: index + 1)
                statement.bind(1, at: index + 2)
                index = statement.bind(slots, of: change.snapshot, from: index + 3)
            }
            assert(Int(index) - 1 == (end - start) * (3 + slots.count), "every parameter of the insert is bound")
            try statement.execute()
            start = end
        }
    }

    /// The text inserting `1 << power` rows of entity `e`.
    private func insertText(entity e: Int, power: Int) -> String {
        assert(1 << power <= Self.insertRowsPerStatement, "a run is at most insertRowsPerStatement rows")
        let key = e << 3 | power
        if let sql = insertSQL[key] { return sql }
        let sql = statements.insert(entity: e, rows: 1 << power)
        insertSQL[key] = sql
        return sql
    }

    /// One statement a row.
    func maxUpdateRun(_ shape: SQLUpdateShape) -> Int { 1 }

    func updateRow(_ change: ObjectChange, shape: SQLUpdateShape) throws -> Bool {
        let statement = SQLiteRawStatement(try db.cachedStatement(sql: sql(of: shape)))
        let next = statement.bind(shape.slots, of: change.snapshot, from: 1)
        statement.bind(change.id.primaryKey, at: next)
        statement.bind(change.snapshot.version, at: next + 1)
        try statement.execute()
        return db.changesCount == 1
    }

    /// Never called (runs are one row long); one statement a row all the same.
    func updateRows(_ run: ArraySlice<ObjectChange>, shape: SQLUpdateShape) throws -> Set<Int64> {
        var updated = Set<Int64>()
        for change in run where try updateRow(change, shape: shape) { updated.insert(change.id.primaryKey) }
        return updated
    }

    /// `UPDATE t SET c = COALESCE(c, 0) + ?, … Z_OPT = Z_OPT + 1 WHERE Z_PK = ? RETURNING Z_OPT`
    /// (cached by text).
    func increment(_ increment: DerivedIncrement, slots written: [RowSlots.Slot]) throws -> Int64? {
        let e = Int(increment.id.entityIndex)
        let names = statements.slots.columnNames[e]
        let sets = written.map { name -> String in
            let column = sqlIdentifier(names[name]!)
            return "\(column) = COALESCE(\(column), 0) + ?, "
        }.joined()
        let statement = SQLiteRawStatement(try db.cachedStatement(
            sql: "UPDATE OR FAIL \(sqlIdentifier(statements.slots.tableName[e])) SET \(sets)Z_OPT = Z_OPT + 1 WHERE Z_PK = ? RETURNING Z_OPT"))
        for (i, difference) in increment.differences.enumerated() { statement.bind(difference.by, at: Int32(i + 1)) }
        statement.bind(increment.id.primaryKey, at: Int32(increment.differences.count + 1))
        // SQLite makes every change of a statement with RETURNING in its first step.
        let version = try statement.step() ? statement.int64(at: 0) : nil
        statement.reset()
        return version
    }

    /// The text of `shape`'s versioned update, built on its first use in the save.
    private func sql(of shape: SQLUpdateShape) -> String {
        if shape.id < updateSQL.count, let sql = updateSQL[shape.id] { return sql }
        if shape.id >= updateSQL.count { updateSQL += Array(repeating: nil, count: shape.id + 1 - updateSQL.count) }
        let sql = statements.versionedUpdate(entity: shape.entity, slots: shape.slots).sql
        updateSQL[shape.id] = sql
        return sql
    }

    func snapshot(for id: ObjectID) throws -> Snapshot? { try reader.snapshot(for: id, db: db) }

    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool {
        // A cached statement: a save of a hundred thousand deletes parses it once, not per row.
        let table = sqlIdentifier(layout.table(ofEntity: Int(id.entityIndex)).name)
        let statement = SQLiteRawStatement(try db.cachedStatement(
            sql: version == nil ? "DELETE FROM \(table) WHERE Z_PK = ?" : "DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?"))
        statement.bind(id.primaryKey, at: 1)
        if let version { statement.bind(version, at: 2) }
        try statement.execute()
        return db.changesCount == 1
    }

    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws {
        let e = Int(id.entityIndex)
        if exists {
            let plan = statements.overwrite[e]
            let statement = SQLiteRawStatement(try db.cachedStatement(sql: plan.sql))
            let next = statement.bind(plan.slots, of: snapshot, from: 1)
            statement.bind(version, at: next)
            statement.bind(id.primaryKey, at: next + 1)
            try statement.execute()
        } else {
            let plan = statements.insert[e]
            let statement = SQLiteRawStatement(try db.cachedStatement(sql: plan.sql))
            statement.bind(id.primaryKey, at: 1)
            statement.bind(Int64(e), at: 2)
            statement.bind(version, at: 3)
            _ = statement.bind(plan.slots, of: snapshot, from: 4)
            try statement.execute()
        }
    }
}
