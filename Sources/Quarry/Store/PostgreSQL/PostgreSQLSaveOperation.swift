#if PostgreSQL
import Foundation
import PostgresNIO

/// One save of a ``PostgreSQLStore``, run inside its transaction on one pooled connection:
/// allocates keys from the tables' sequences, writes new rows with multi-row `INSERT`s,
/// detects and resolves optimistic-locking conflicts exactly as ``SQLiteSaveOperation`` does,
/// maintains join tables and order columns.
///
/// Not thread-safe and never shared: it lives for one call of ``PostgreSQLStore/save(_:resolve:)``.
final class PostgreSQLSaveOperation {
    let layout: PostgreSQLLayout
    let model: ManagedObjectModel
    let reader: PostgreSQLRowReader
    let resolve: (MergeConflict) -> ConflictResolution
    /// The entity of the row being written (names the entity of a uniqueness violation).
    var currentEntity: Int?

    var result = StoreSaveResult()
    private var failed: [MergeConflict] = []
    private let transientIndices: [[Int]]
    private let tombstoneIndices: [[Int]]
    /// The tombstone JSON of each deleted object that has one (for the history writer).
    private(set) var tombstones: [ObjectID: String] = [:]

    /// Rows per multi-row `INSERT`: under PostgreSQL's 65,535 parameters, and small enough
    /// that the statement text stays cheap to parse.
    static let parameterBudget = 30_000

    init(store: PostgreSQLStore, resolve: @escaping (MergeConflict) -> ConflictResolution) {
        layout = store.layout
        model = store.model
        reader = PostgreSQLRowReader(layout: store.layout, model: store.model)
        self.resolve = resolve
        transientIndices = store.model.entities.map { e in e.attributes.indices.filter { e.attributes[$0].isTransient } }
        tombstoneIndices = store.model.entities.map { e in
            store.recordsHistory ? e.attributes.indices.filter { !e.attributes[$0].isTransient && e.attributes[$0].preservesValueInHistoryOnDeletion } : []
        }
    }

    /// Writes `changes`; throws ``MergeConflictError`` when a conflict resolves to `.fail`.
    func run(_ changes: StoreChangeSet, connection: PostgreSQLConnection) throws -> StoreSaveResult {
        result = StoreSaveResult()
        failed = []
        tombstones = [:]
        var changes = changes
        let mapping = try allocateKeys(for: &changes.inserts, connection: connection)
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping

        try insert(changes.inserts, connection: connection)
        let skipToMany = try updateAll(changes.updates, connection: connection)
        for deleted in changes.deletes { try delete(deleted.id, version: deleted.version, connection: connection) }
        if !failed.isEmpty { throw MergeConflictError(conflicts: failed) }
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

    /// Records that `change` was written at its next version.
    func recordUpdated(_ change: ObjectChange) {
        let entity = model.entities[Int(change.id.entityIndex)]
        let written = stored(change.snapshot, version: change.snapshot.version + 1, entity: entity.index)
        result.written[change.id] = written
        result.changes.recordUpdate(change.id, changed: change.changed, of: entity, stored: written)
    }

    /// The versioned update of `change` matched no row: reads the row as committed and applies
    /// the merge policy's resolution; returns `false` when it dropped the change.
    func resolveUpdateConflict(_ change: ObjectChange, connection: PostgreSQLConnection) throws -> Bool {
        let entity = model.entities[Int(change.id.entityIndex)]
        currentEntity = entity.index
        let persisted = try reader.snapshot(for: change.id, connection: connection)
        let conflict = MergeConflict(objectID: change.id, entityName: entity.name, cachedSnapshot: change.committed,
                                     persistedSnapshot: persisted, objectSnapshot: change.snapshot, changed: change.changed)
        return try apply(resolve(conflict), to: conflict, connection: connection)
    }

    /// A versioned delete (join-table rows go with it).
    private func delete(_ id: ObjectID, version: Int64, connection: PostgreSQLConnection) throws {
        let entity = model.entities[Int(id.entityIndex)]
        currentEntity = entity.index
        let table = layout.base.table(ofEntity: entity.index)
        let tombstone = tombstoneIndices[entity.index].isEmpty ? nil
            : try reader.snapshot(for: id, connection: connection).flatMap { SQLiteHistoryWriter.tombstone($0, entity: entity, attributes: tombstoneIndices[entity.index]) }
        var b = PostgresBindings()
        b.append(id.primaryKey)
        b.append(version)
        if try connection.execute("DELETE FROM \(PostgreSQLLayout.q(table.name)) WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2", b) == 1 {
            tombstones[id] = tombstone
            try deleteJoinRows(of: id, connection: connection)
            result.changes.deleted.append(id)
            return
        }
        guard let persisted = try reader.snapshot(for: id, connection: connection) else {
            // Already deleted elsewhere: the wanted end state holds.
            result.changes.deleted.append(id)
            return
        }
        let conflict = MergeConflict(objectID: id, entityName: entity.name, cachedSnapshot: nil,
                                     persistedSnapshot: persisted, objectSnapshot: nil, changed: PropertyMask())
        _ = try apply(resolve(conflict), to: conflict, connection: connection)
    }

    /// Applies a conflict's resolution; returns whether the object's to-many changes still apply.
    private func apply(_ resolution: ConflictResolution, to conflict: MergeConflict, connection: PostgreSQLConnection) throws -> Bool {
        let id = conflict.objectID
        switch resolution {
        case .write(let snapshot):
            let version = conflict.newVersion + 1
            try overwrite(id, with: snapshot, version: version, exists: conflict.persistedSnapshot != nil, connection: connection)
            let entity = model.entities[Int(id.entityIndex)]
            let written = stored(snapshot, version: version, entity: entity.index)
            result.written[id] = written
            var changed = conflict.changed
            changed.formUnion(SQLiteSaveOperation.differences(snapshot, conflict.persistedSnapshot, entity: entity))
            result.changes.recordUpdate(id, changed: changed, of: entity, stored: written)
            return true
        case .keepPersisted:
            result.rolledBack[id] = .some(conflict.persistedSnapshot)
            return false
        case .delete:
            let table = layout.base.table(ofEntity: Int(id.entityIndex))
            var b = PostgresBindings()
            b.append(id.primaryKey)
            try connection.execute("DELETE FROM \(PostgreSQLLayout.q(table.name)) WHERE \"Z_PK\" = $1", b)
            try deleteJoinRows(of: id, connection: connection)
            let entity = model.entities[Int(id.entityIndex)]
            tombstones[id] = conflict.persistedSnapshot.flatMap { SQLiteHistoryWriter.tombstone($0, entity: entity, attributes: tombstoneIndices[entity.index]) }
            result.changes.deleted.append(id)
            return false
        case .fail:
            failed.append(conflict)
            return false
        }
    }

    /// Writes every column of `snapshot` at `version` (re-creating the row if it was deleted).
    private func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool, connection: PostgreSQLConnection) throws {
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

    /// `snapshot` as the store holds it: at `version`, transient attributes cleared.
    @inline(__always)
    func stored(_ snapshot: Snapshot, version: Int64, entity: Int) -> Snapshot {
        var s = snapshot
        s.version = version
        for i in transientIndices[entity] { s.values[i] = .null }
        return s
    }
}
#endif
