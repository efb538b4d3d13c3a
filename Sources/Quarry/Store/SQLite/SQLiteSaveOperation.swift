import GRDB

/// One save of an ``SQLiteStore``, run inside its `IMMEDIATE` transaction on the writer
/// connection: allocates keys, writes rows with cached prepared statements, detects and
/// resolves optimistic-locking conflicts, maintains join tables and order columns.
///
/// Not thread-safe and never shared: it lives for one call of ``SQLiteStore/save(_:resolve:)``.
final class SQLiteSaveOperation: SQLSaveOperation {
    let layout: StoreLayout
    let statements: RowStatements
    let reader: SQLiteRowReader
    private var updatePlans: [Int: [PropertyMask: RowStatements.Plan]] = [:]

    init(store: SQLiteStore, resolve: @escaping (MergeConflict) -> ConflictResolution) {
        layout = store.layout
        statements = store.statements
        reader = store.rowReader
        super.init(model: store.model, recordsHistory: store.recordsHistory, resolve: resolve)
    }

    /// Writes `changes`; throws ``MergeConflictError`` when a conflict resolves to `.fail`.
    func run(_ changes: StoreChangeSet, db: Database) throws -> StoreSaveResult {
        begin()
        var changes = changes
        let mapping = try allocateKeys(for: &changes.inserts, db: db)
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping

        try insert(changes.inserts, db: db)
        var skipToMany = Set<ObjectID>()
        for change in changes.updates where try !update(change, db: db) { skipToMany.insert(change.id) }
        for deleted in changes.deletes { try delete(deleted.id, version: deleted.version, rows: SQLiteSaveRows(operation: self, db: db)) }
        try throwFailedConflicts()
        for change in changes.inserts where !change.toMany.isEmpty { try writeToMany(change, db: db) }
        for change in changes.updates where !change.toMany.isEmpty && !skipToMany.contains(change.id) {
            try writeToMany(change, db: db)
        }
        currentEntity = nil
        return result
    }

    // MARK: - Keys

    /// Reserves a block of primary keys per root table in `Z_PRIMARYKEY` and maps each
    /// temporary ID to a permanent one of the same entity.
    private func allocateKeys(for inserts: inout [ObjectChange], db: Database) throws -> [ObjectID: ObjectID] {
        var countByTable = [Int64](repeating: 0, count: layout.tables.count)
        for change in inserts where change.id.isTemporary {
            countByTable[layout.entities[Int(change.id.entityIndex)].tableIndex] += 1
        }
        var nextByTable = [Int64](repeating: 0, count: layout.tables.count)
        for (table, count) in countByTable.enumerated() where count > 0 {
            let name = layout.tables[table].name
            let max = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ROOT = ?", arguments: [name]) ?? 0
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ROOT = ?", arguments: [max + count, name])
            nextByTable[table] = max + 1
        }
        var mapping: [ObjectID: ObjectID] = [:]
        mapping.reserveCapacity(inserts.count)
        for i in inserts.indices where inserts[i].id.isTemporary {
            let temporary = inserts[i].id
            let table = layout.entities[Int(temporary.entityIndex)].tableIndex
            let permanent = ObjectID(entityIndex: Int(temporary.entityIndex), primaryKey: nextByTable[table])
            nextByTable[table] += 1
            mapping[temporary] = permanent
            inserts[i].id = permanent
        }
        return mapping
    }

    // MARK: - Rows

    /// The hot path: one cached statement per entity, values bound straight from snapshots.
    private func insert(_ inserts: [ObjectChange], db: Database) throws {
        var prepared = [SQLiteRawStatement?](repeating: nil, count: model.entities.count)
        result.written.reserveCapacity(inserts.count)
        result.changes.inserted.reserveCapacity(inserts.count)
        result.changes.insertedSnapshots.reserveCapacity(inserts.count)
        for change in inserts {
            let e = Int(change.id.entityIndex)
            currentEntity = e
            let statement: SQLiteRawStatement
            if let p = prepared[e] {
                statement = p
            } else {
                statement = SQLiteRawStatement(try db.cachedStatement(sql: statements.insert[e].sql))
                prepared[e] = statement
            }
            statement.bind(change.id.primaryKey, at: 1)
            statement.bind(Int64(e), at: 2)
            statement.bind(1, at: 3)
            _ = statement.bind(statements.insert[e].slots, of: change.snapshot, from: 4)
            try statement.execute()
            result.changes.recordInsert(change.id, stored: stored(change.snapshot, version: 1, entity: e))
        }
    }

    /// A versioned update; returns `false` when a conflict resolution dropped the change.
    private func update(_ change: ObjectChange, db: Database) throws -> Bool {
        let entity = model.entities[Int(change.id.entityIndex)]
        currentEntity = entity.index
        let plan = updatePlan(entity, change.changed)
        let statement = SQLiteRawStatement(try db.cachedStatement(sql: plan.sql))
        let next = statement.bind(plan.slots, of: change.snapshot, from: 1)
        statement.bind(change.id.primaryKey, at: next)
        statement.bind(change.snapshot.version, at: next + 1)
        try statement.execute()
        if db.changesCount == 1 {
            recordUpdated(change)
            return true
        }
        return try resolveUpdateConflict(change, rows: SQLiteSaveRows(operation: self, db: db))
    }

    /// Writes every column of `snapshot` at `version` (re-creating the row if it was deleted).
    fileprivate func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool, db: Database) throws {
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

    private func updatePlan(_ entity: EntityDescription, _ changed: PropertyMask) -> RowStatements.Plan {
        if let plan = updatePlans[entity.index]?[changed] { return plan }
        let plan = statements.versionedUpdate(entity: entity, changed: changed)
        updatePlans[entity.index, default: [:]][changed] = plan
        return plan
    }
}

/// The SQLite rows of one save, for the steps ``SQLSaveOperation`` shares (inside the save's
/// transaction, on the writer connection).
private struct SQLiteSaveRows: SaveRowAccess {
    let operation: SQLiteSaveOperation
    let db: Database

    func snapshot(for id: ObjectID) throws -> Snapshot? { try operation.reader.snapshot(for: id, db: db) }

    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool {
        let table = sqlIdentifier(operation.layout.table(ofEntity: Int(id.entityIndex)).name)
        if let version {
            try db.execute(sql: "DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?", arguments: [id.primaryKey, version])
        } else {
            try db.execute(sql: "DELETE FROM \(table) WHERE Z_PK = ?", arguments: [id.primaryKey])
        }
        return db.changesCount == 1
    }

    func deleteJoinRows(of id: ObjectID) throws { try operation.deleteJoinRows(of: id, db: db) }

    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws {
        try operation.overwrite(id, with: snapshot, version: version, exists: exists, db: db)
    }
}
