import Foundation

/// The PostgreSQL rows of one save of a ``PostgreSQLStore``, for the shared save template
/// (``SQLSaveOperation/run(_:rows:)``), inside the save's transaction on one pooled
/// connection: keys from the tables' sequences, new rows by binary `COPY` (runs of at least
/// ``copyThreshold``) or one multi-row `INSERT` (under ``parameterBudget``), updates in runs of
/// one multi-row statement each.
///
/// Not thread-safe and never shared: it lives for one call of ``PostgreSQLStore/save(_:resolve:)``.
final class PostgreSQLSaveRows: SQLSaveRows {
    let connection: PostgreSQLConnection
    let layout: PostgreSQLLayout
    private let reader: PostgreSQLRowReader
    /// The store saved to: where keys left over from a save's blocks wait for the next save
    /// (``PostgreSQLStore/reservedKeys``).
    private let store: PostgreSQLStore
    /// Per update shape (``SQLUpdateShape/id``): the columns (with shadows) it writes and its
    /// one-row statement's text.
    private var updates: [(columns: [PostgreSQLLayout.SlotColumn], sql: String)?] = []

    /// Parameters per multi-row statement: under PostgreSQL's 65,535, and small enough that
    /// the statement text stays cheap to parse.
    static let parameterBudget = 30_000
    /// Runs of at least this many new rows go in by binary `COPY`: one round trip and no
    /// statement text to parse, where a multi-row `INSERT`'s parse and planning grow with its
    /// rows; shorter runs skip `COPY`'s extra round trip.
    static let copyThreshold = 32
    /// The most new rows one `COPY` takes: the save template's runs. The rows are streamed as
    /// they are encoded, so this bounds one statement's work, not memory.
    static let copyRun = 20_000

    init(store: PostgreSQLStore, connection: PostgreSQLConnection) {
        layout = store.layout
        reader = PostgreSQLRowReader(layout: store.layout, model: store.model)
        self.connection = connection
        self.store = store
    }

    /// Takes `count` keys: first those this store reserved before, then whole blocks of the
    /// table's sequence (``PostgreSQLKeyBlocks``), the rest of the last block kept for later.
    func allocateKeys(_ count: Int64, table: Int) throws -> [Int64] {
        guard count > 0 else { return [] }
        var keys = store.reservedKeys.withLock { PostgreSQLKeyBlocks.take(count, from: &$0[table]) }
        let missing = count - Int64(keys.count)
        guard missing > 0 else { return keys }
        let blocks = try PostgreSQLKeyBlocks.reserve(missing, sequence: layout.sequence(ofTable: table), on: connection)
        keys.reserveCapacity(Int(count))
        var left = blocks.remainder(after: missing)
        keys += blocks.keys(missing)
        // A block another save left meanwhile is kept if it has more keys.
        store.reservedKeys.withLock { reserved in
            if (reserved[table]?.count ?? 0) < (left?.count ?? 0) { swap(&reserved[table], &left) }
        }
        return keys
    }

    func maxInsertRun(entity: Int) -> Int { Self.copyRun }

    func insertRows(_ run: ArraySlice<ObjectChange>, entity e: Int) throws {
        let columns = layout.slotColumns[e]
        let perRow = 3 + PostgreSQLValues.bindCount(columns)
        let statementRows = max(1, Self.parameterBudget / perRow)
        if run.count >= Self.copyThreshold || run.count > statementRows {
            try connection.copyIn(copySQL(entity: e)) { writer in
                for change in run {
                    writer.beginRow(fields: perRow)
                    Self.append(change, entity: e, columns: columns, to: &writer)
                }
            }
            return
        }
        var b = PGBindings(capacity: run.count * perRow)
        for change in run { Self.append(change, entity: e, columns: columns, to: &b) }
        try connection.execute(insertSQL(entity: e, rows: run.count), b)
    }

    /// The fields of a new row, in ``insertSQL(entity:rows:)``'s and ``copySQL(entity:)``'s
    /// column order: key, entity, version 1, then the slot columns with their shadows.
    private static func append<W: PGFieldWriter>(_ change: ObjectChange, entity e: Int, columns: [PostgreSQLLayout.SlotColumn], to b: inout W) {
        b.append(change.id.primaryKey)
        b.append(Int64(e))
        b.append(Int64(1))
        PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
    }

    /// `COPY t ("Z_PK", "Z_ENT", "Z_OPT", …) FROM STDIN (FORMAT binary)`.
    func copySQL(entity e: Int) -> String {
        let names = PostgreSQLLayout.columnList(layout.slotColumns[e])
        return "COPY \(PostgreSQLLayout.q(layout.slots.tableName[e])) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\"\(names.map { ", " + $0 }.joined())) FROM STDIN (FORMAT binary)"
    }

    /// `INSERT INTO t ("Z_PK", "Z_ENT", "Z_OPT", …) VALUES ($1, …), (…)` for `rows` rows.
    func insertSQL(entity e: Int, rows: Int) -> String {
        let names = PostgreSQLLayout.columnList(layout.slotColumns[e])
        let perRow = 3 + names.count
        var sql = "INSERT INTO \(PostgreSQLLayout.q(layout.slots.tableName[e])) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\""
        for name in names { sql += ", " + name }
        sql += ") VALUES "
        sql.reserveCapacity(sql.utf8.count + rows * perRow * 7)
        var n = 0
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for column in 0..<perRow {
                n += 1
                sql += column == 0 ? "$\(n)" : ", $\(n)"
            }
            sql += ")"
        }
        return sql
    }

    func maxUpdateRun(_ shape: SQLUpdateShape) -> Int {
        max(1, Self.parameterBudget / (2 + PostgreSQLValues.bindCount(update(shape).columns)))
    }

    func updateRow(_ change: ObjectChange, shape: SQLUpdateShape) throws -> Bool {
        let (columns, sql) = update(shape)
        var b = PGBindings()
        PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
        b.append(change.id.primaryKey)
        b.append(change.snapshot.version)
        return try connection.execute(sql, b) == 1
    }

    /// The columns `shape` writes and its one-row statement, made on the shape's first use:
    /// `UPDATE t SET … "Z_OPT" = "Z_OPT" + 1 WHERE "Z_PK" = $n AND "Z_OPT" = $m`.
    func update(_ shape: SQLUpdateShape) -> (columns: [PostgreSQLLayout.SlotColumn], sql: String) {
        if shape.id < updates.count, let update = updates[shape.id] { return update }
        if shape.id >= updates.count { updates += Array(repeating: nil, count: shape.id + 1 - updates.count) }
        let written = Set(shape.slots)
        let columns = layout.slotColumns[shape.entity].filter { written.contains($0.slot) }
        let sets = PostgreSQLLayout.columnList(columns).enumerated().map { "\($0.element) = $\($0.offset + 1), " }.joined()
        let n = PostgreSQLValues.bindCount(columns)
        let sql = "UPDATE \(PostgreSQLLayout.q(layout.slots.tableName[shape.entity])) SET \(sets)\"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = $\(n + 1) AND \"Z_OPT\" = $\(n + 2)"
        updates[shape.id] = (columns, sql)
        return (columns, sql)
    }

    /// `UPDATE t SET c = COALESCE(c, 0) + $1, … "Z_OPT" = "Z_OPT" + 1 WHERE "Z_PK" = $n RETURNING "Z_OPT"`.
    func increment(_ increment: DerivedIncrement, slots written: [RowSlots.Slot]) throws -> Int64? {
        let e = Int(increment.id.entityIndex)
        var b = PGBindings()
        var sets = ""
        for (i, (slot, difference)) in zip(written, increment.differences).enumerated() {
            guard let column = layout.slotColumns[e].first(where: { $0.slot == slot }) else {
                throw QuarryError.invalidValue("\(layout.slots.tableName[e]): no column for a derived attribute")
            }
            let name = PostgreSQLLayout.q(column.name)
            sets += "\(name) = COALESCE(\(name), 0) + $\(i + 1), "
            switch difference.by {
            case .integer(let v): b.append(v)
            case .double(let v): b.append(v)
            default: throw QuarryError.invalidValue("a derived difference must be an integer or a double, not \(difference.by)")
            }
        }
        b.append(increment.id.primaryKey)
        let table = PostgreSQLLayout.q(layout.slots.tableName[e])
        let result = try connection.query(
            "UPDATE \(table) SET \(sets)\"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = $\(increment.differences.count + 1) RETURNING \"Z_OPT\"", b)
        guard result.endIndex > 0 else { return nil }
        return try result[0][0].decode(Int64.self)
    }

    func snapshot(for id: ObjectID) throws -> Snapshot? { try reader.snapshot(for: id, connection: connection) }

    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool {
        let table = PostgreSQLLayout.q(layout.base.table(ofEntity: Int(id.entityIndex)).name)
        var b = PGBindings()
        b.append(id.primaryKey)
        guard let version else { return try connection.execute("DELETE FROM \(table) WHERE \"Z_PK\" = $1", b) == 1 }
        b.append(version)
        return try connection.execute("DELETE FROM \(table) WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2", b) == 1
    }

    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws {
        let e = Int(id.entityIndex)
        let columns = layout.slotColumns[e]
        var b = PGBindings()
        if exists {
            PostgreSQLValues.append(columns, of: snapshot, to: &b)
            let n = PostgreSQLValues.bindCount(columns)
            let sets = PostgreSQLLayout.columnList(columns).enumerated().map { "\($0.element) = $\($0.offset + 1), " }.joined()
            b.append(version)
            b.append(id.primaryKey)
            try connection.execute("UPDATE \(PostgreSQLLayout.q(layout.slots.tableName[e])) SET \(sets)\"Z_OPT\" = $\(n + 1) WHERE \"Z_PK\" = $\(n + 2)", b)
        } else {
            b.append(id.primaryKey)
            b.append(Int64(e))
            b.append(version)
            PostgreSQLValues.append(columns, of: snapshot, to: &b)
            try connection.execute(insertSQL(entity: e, rows: 1), b)
        }
    }
}
