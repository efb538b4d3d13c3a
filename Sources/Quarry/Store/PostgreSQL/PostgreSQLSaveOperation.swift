#if PostgreSQL
import Foundation
import PostgresNIO

/// One save of a ``PostgreSQLStore``, run inside its transaction on one pooled connection:
/// allocates keys from the tables' sequences, writes new rows with multi-row `INSERT`s,
/// detects and resolves optimistic-locking conflicts exactly as ``SQLiteSaveOperation`` does,
/// maintains join tables and order columns.
///
/// Not thread-safe and never shared: it lives for one call of ``PostgreSQLStore/save(_:resolve:)``.
final class PostgreSQLSaveOperation: SQLSaveOperation {
    let layout: PostgreSQLLayout
    let reader: PostgreSQLRowReader

    /// Rows per multi-row `INSERT`: under PostgreSQL's 65,535 parameters, and small enough
    /// that the statement text stays cheap to parse.
    static let parameterBudget = 30_000

    init(store: PostgreSQLStore, resolve: @escaping (MergeConflict) -> ConflictResolution) {
        layout = store.layout
        reader = PostgreSQLRowReader(layout: store.layout, model: store.model)
        super.init(model: store.model, recordsHistory: store.recordsHistory, resolve: resolve)
    }

    /// Writes `changes`; throws ``MergeConflictError`` when a conflict resolves to `.fail`.
    func run(_ changes: StoreChangeSet, connection: PostgreSQLConnection) throws -> StoreSaveResult {
        begin()
        var changes = changes
        let mapping = try allocateKeys(for: &changes.inserts, connection: connection)
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping

        try insert(changes.inserts, connection: connection)
        let skipToMany = try updateAll(changes.updates, connection: connection)
        for deleted in changes.deletes { try delete(deleted.id, version: deleted.version, rows: PostgreSQLSaveRows(operation: self, connection: connection)) }
        try throwFailedConflicts()
        for change in changes.inserts where !change.toMany.isEmpty { try writeToMany(change, connection: connection) }
        for change in changes.updates where !change.toMany.isEmpty && !skipToMany.contains(change.id) {
            try writeToMany(change, connection: connection)
        }
        currentEntity = nil
        return result
    }

    // MARK: - Keys

    /// Takes as many keys per root table as it has new rows from the table's sequence, and
    /// maps each temporary ID to a permanent one of the same entity.
    private func allocateKeys(for inserts: inout [ObjectChange], connection: PostgreSQLConnection) throws -> [ObjectID: ObjectID] {
        var countByTable = [Int64](repeating: 0, count: layout.base.tables.count)
        for change in inserts where change.id.isTemporary {
            countByTable[layout.base.entities[Int(change.id.entityIndex)].tableIndex] += 1
        }
        var keysByTable = [[Int64]](repeating: [], count: countByTable.count)
        for (table, count) in countByTable.enumerated() where count > 0 {
            var b = PostgresBindings()
            b.append(count)
            let sink = PostgreSQLRowSink<Int64>()
            sink.items.reserveCapacity(Int(count))
            try connection.forEachRow("SELECT nextval('\(PostgreSQLLayout.q(layout.sequence(ofTable: table)))') FROM generate_series(1, $1)", b) { row in
                if let key = PostgreSQLValues.integer(row.makeRandomAccess()[0]) { sink.items.append(key) }
            }
            keysByTable[table] = sink.items.sorted()
        }
        var next = [Int](repeating: 0, count: countByTable.count)
        var mapping: [ObjectID: ObjectID] = [:]
        mapping.reserveCapacity(inserts.count)
        for i in inserts.indices where inserts[i].id.isTemporary {
            let temporary = inserts[i].id
            let table = layout.base.entities[Int(temporary.entityIndex)].tableIndex
            let permanent = ObjectID(entityIndex: Int(temporary.entityIndex), primaryKey: keysByTable[table][next[table]])
            next[table] += 1
            mapping[temporary] = permanent
            inserts[i].id = permanent
        }
        return mapping
    }

    // MARK: - Rows

    /// The hot path: per entity, runs of rows in multi-row `INSERT`s.
    private func insert(_ inserts: [ObjectChange], connection: PostgreSQLConnection) throws {
        result.written.reserveCapacity(inserts.count)
        result.changes.inserted.reserveCapacity(inserts.count)
        result.changes.insertedSnapshots.reserveCapacity(inserts.count)
        var start = 0
        while start < inserts.count {
            let e = Int(inserts[start].id.entityIndex)
            currentEntity = e
            let columns = layout.slotColumns[e]
            let perRow = 3 + PostgreSQLValues.bindCount(columns)
            let maxRows = max(1, Self.parameterBudget / perRow)
            var end = start + 1
            while end < inserts.count, end - start < maxRows, Int(inserts[end].id.entityIndex) == e { end += 1 }
            var b = PostgresBindings(capacity: (end - start) * perRow)
            for change in inserts[start..<end] {
                b.append(change.id.primaryKey)
                b.append(Int64(e))
                b.append(Int64(1))
                PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
            }
            try connection.execute(insertSQL(entity: e, rows: end - start), b)
            for change in inserts[start..<end] {
                result.changes.recordInsert(change.id, stored: stored(change.snapshot, version: 1, entity: e))
            }
            start = end
        }
    }

    /// `INSERT INTO t ("Z_PK", "Z_ENT", "Z_OPT", …) VALUES ($1, …), (…)` for `rows` rows.
    func insertSQL(entity e: Int, rows: Int) -> String {
        let names = PostgreSQLLayout.columnList(layout.slotColumns[e])
        let perRow = 3 + names.count
        var sql = "INSERT INTO \(PostgreSQLLayout.q(layout.statements.tableName[e])) (\"Z_PK\", \"Z_ENT\", \"Z_OPT\""
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

    /// The columns (with shadows) a versioned update of `change` writes.
    func updateColumns(_ change: ObjectChange) -> [PostgreSQLLayout.SlotColumn] {
        let entity = model.entities[Int(change.id.entityIndex)]
        let slots = Set(layout.statements.versionedUpdate(entity: entity, changed: change.changed).slots)
        return layout.slotColumns[entity.index].filter { slots.contains($0.slot) }
    }

    /// A versioned update of one row; returns `false` when a conflict resolution dropped the
    /// change.
    func update(_ change: ObjectChange, connection: PostgreSQLConnection) throws -> Bool {
        let entity = model.entities[Int(change.id.entityIndex)]
        currentEntity = entity.index
        let columns = updateColumns(change)
        var b = PostgresBindings()
        PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
        let sets = PostgreSQLLayout.columnList(columns).enumerated().map { "\($0.element) = $\($0.offset + 1), " }.joined()
        let n = PostgreSQLValues.bindCount(columns)
        b.append(change.id.primaryKey)
        b.append(change.snapshot.version)
        let sql = "UPDATE \(PostgreSQLLayout.q(layout.statements.tableName[entity.index])) SET \(sets)\"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = $\(n + 1) AND \"Z_OPT\" = $\(n + 2)"
        if try connection.execute(sql, b) == 1 {
            recordUpdated(change)
            return true
        }
        return try resolveUpdateConflict(change, connection: connection)
    }

    /// The versioned update of `change` matched no row: the shared conflict handling.
    func resolveUpdateConflict(_ change: ObjectChange, connection: PostgreSQLConnection) throws -> Bool {
        try resolveUpdateConflict(change, rows: PostgreSQLSaveRows(operation: self, connection: connection))
    }

    /// Writes every column of `snapshot` at `version` (re-creating the row if it was deleted).
    fileprivate func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool, connection: PostgreSQLConnection) throws {
        let e = Int(id.entityIndex)
        let columns = layout.slotColumns[e]
        var b = PostgresBindings()
        if exists {
            PostgreSQLValues.append(columns, of: snapshot, to: &b)
            let n = PostgreSQLValues.bindCount(columns)
            let sets = PostgreSQLLayout.columnList(columns).enumerated().map { "\($0.element) = $\($0.offset + 1), " }.joined()
            b.append(version)
            b.append(id.primaryKey)
            try connection.execute("UPDATE \(PostgreSQLLayout.q(layout.statements.tableName[e])) SET \(sets)\"Z_OPT\" = $\(n + 1) WHERE \"Z_PK\" = $\(n + 2)", b)
        } else {
            b.append(id.primaryKey)
            b.append(Int64(e))
            b.append(version)
            PostgreSQLValues.append(columns, of: snapshot, to: &b)
            try connection.execute(insertSQL(entity: e, rows: 1), b)
        }
    }
}

/// The PostgreSQL rows of one save, for the steps ``SQLSaveOperation`` shares (inside the
/// save's transaction, on its connection).
private struct PostgreSQLSaveRows: SaveRowAccess {
    let operation: PostgreSQLSaveOperation
    let connection: PostgreSQLConnection

    func snapshot(for id: ObjectID) throws -> Snapshot? { try operation.reader.snapshot(for: id, connection: connection) }

    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool {
        let table = PostgreSQLLayout.q(operation.layout.base.table(ofEntity: Int(id.entityIndex)).name)
        var b = PostgresBindings()
        b.append(id.primaryKey)
        guard let version else { return try connection.execute("DELETE FROM \(table) WHERE \"Z_PK\" = $1", b) == 1 }
        b.append(version)
        return try connection.execute("DELETE FROM \(table) WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2", b) == 1
    }

    func deleteJoinRows(of id: ObjectID) throws { try operation.deleteJoinRows(of: id, connection: connection) }

    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws {
        try operation.overwrite(id, with: snapshot, version: version, exists: exists, connection: connection)
    }
}
#endif
