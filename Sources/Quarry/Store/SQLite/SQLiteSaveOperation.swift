import GRDB

/// One save of an ``SQLiteStore``, run inside its `IMMEDIATE` transaction on the writer
/// connection: allocates keys, writes rows with cached prepared statements, detects and
/// resolves optimistic-locking conflicts, maintains join tables and order columns.
///
/// Not thread-safe and never shared: it lives for one call of ``SQLiteStore/save(_:resolve:)``.
final class SQLiteSaveOperation {
    let layout: SQLiteLayout
    let statements: SQLiteStatements
    let model: ManagedObjectModel
    let reader: SQLiteRowReader
    let resolve: (MergeConflict) -> ConflictResolution
    /// The entity of the row being written (names the entity of a uniqueness violation).
    private(set) var currentEntity: Int?

    var result = StoreSaveResult()
    private var failed: [MergeConflict] = []
    private var updatePlans: [Int: [PropertyMask: SQLiteStatements.Plan]] = [:]
    private let transientIndices: [[Int]]
    /// Per entity, the attributes a delete keeps in history (empty when the store records none).
    private let tombstoneIndices: [[Int]]
    /// The tombstone JSON of each deleted object that has one (for the history writer).
    private(set) var tombstones: [ObjectID: String] = [:]

    init(store: SQLiteStore, resolve: @escaping (MergeConflict) -> ConflictResolution) {
        layout = store.layout
        statements = store.statements
        model = store.model
        reader = store.rowReader
        self.resolve = resolve
        transientIndices = store.model.entities.map { e in e.attributes.indices.filter { e.attributes[$0].isTransient } }
        tombstoneIndices = store.model.entities.map { e in
            store.recordsHistory ? e.attributes.indices.filter { !e.attributes[$0].isTransient && e.attributes[$0].preservesValueInHistoryOnDeletion } : []
        }
    }

    /// Writes `changes`; throws ``MergeConflictError`` when a conflict resolves to `.fail`.
    func run(_ changes: StoreChangeSet, db: Database) throws -> StoreSaveResult {
        result = StoreSaveResult()
        failed = []
        tombstones = [:]
        var changes = changes
        let mapping = try allocateKeys(for: &changes.inserts, db: db)
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping

        try insert(changes.inserts, db: db)
        var skipToMany = Set<ObjectID>()
        for change in changes.updates where try !update(change, db: db) { skipToMany.insert(change.id) }
        for deleted in changes.deletes { try delete(deleted.id, version: deleted.version, db: db) }
        if !failed.isEmpty { throw MergeConflictError(conflicts: failed) }
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
            let written = stored(change.snapshot, version: change.snapshot.version + 1, entity: entity.index)
            result.written[change.id] = written
            result.changes.recordUpdate(change.id, changed: change.changed, of: entity, stored: written)
            return true
        }
        let persisted = try reader.snapshot(for: change.id, db: db)
        let conflict = MergeConflict(objectID: change.id, entityName: entity.name, cachedSnapshot: change.committed,
                                     persistedSnapshot: persisted, objectSnapshot: change.snapshot, changed: change.changed)
        return try apply(resolve(conflict), to: conflict, db: db)
    }

    /// A versioned delete (join-table rows go with it).
    private func delete(_ id: ObjectID, version: Int64, db: Database) throws {
        let entity = model.entities[Int(id.entityIndex)]
        currentEntity = entity.index
        let table = layout.table(ofEntity: entity.index)
        // The preserved values are read before the row goes (only for entities that have some).
        let tombstone = tombstoneIndices[entity.index].isEmpty ? nil
            : try reader.snapshot(for: id, db: db).flatMap { SQLiteHistoryWriter.tombstone($0, entity: entity, attributes: tombstoneIndices[entity.index]) }
        try db.execute(sql: "DELETE FROM \(sqlIdentifier(table.name)) WHERE Z_PK = ? AND Z_OPT = ?", arguments: [id.primaryKey, version])
        if db.changesCount == 1 {
            tombstones[id] = tombstone
            try deleteJoinRows(of: id, db: db)
            result.changes.deleted.append(id)
            return
        }
        guard let persisted = try reader.snapshot(for: id, db: db) else {
            // Already deleted elsewhere: the wanted end state holds.
            result.changes.deleted.append(id)
            return
        }
        let conflict = MergeConflict(objectID: id, entityName: entity.name, cachedSnapshot: nil,
                                     persistedSnapshot: persisted, objectSnapshot: nil, changed: PropertyMask())
        _ = try apply(resolve(conflict), to: conflict, db: db)
    }

    /// Applies a conflict's resolution; returns whether the object's to-many changes still apply.
    private func apply(_ resolution: ConflictResolution, to conflict: MergeConflict, db: Database) throws -> Bool {
        let id = conflict.objectID
        switch resolution {
        case .write(let snapshot):
            let version = conflict.newVersion + 1
            try overwrite(id, with: snapshot, version: version, exists: conflict.persistedSnapshot != nil, db: db)
            let entity = model.entities[Int(id.entityIndex)]
            let written = stored(snapshot, version: version, entity: entity.index)
            result.written[id] = written
            var changed = conflict.changed
            changed.formUnion(Self.differences(snapshot, conflict.persistedSnapshot, entity: entity))
            result.changes.recordUpdate(id, changed: changed, of: entity, stored: written)
            return true
        case .keepPersisted:
            result.rolledBack[id] = .some(conflict.persistedSnapshot)
            return false
        case .delete:
            let table = layout.table(ofEntity: Int(id.entityIndex))
            try db.execute(sql: "DELETE FROM \(sqlIdentifier(table.name)) WHERE Z_PK = ?", arguments: [id.primaryKey])
            try deleteJoinRows(of: id, db: db)
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
    private func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool, db: Database) throws {
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

    private func updatePlan(_ entity: EntityDescription, _ changed: PropertyMask) -> SQLiteStatements.Plan {
        if let plan = updatePlans[entity.index]?[changed] { return plan }
        let plan = statements.versionedUpdate(entity: entity, changed: changed)
        updatePlans[entity.index, default: [:]][changed] = plan
        return plan
    }

    /// `snapshot` as the store holds it: at `version`, transient attributes cleared.
    @inline(__always)
    private func stored(_ snapshot: Snapshot, version: Int64, entity: Int) -> Snapshot {
        var s = snapshot
        s.version = version
        for i in transientIndices[entity] { s.values[i] = .null }
        return s
    }

    /// The stored properties (attributes and to-ones) where `a` and `b` differ.
    static func differences(_ a: Snapshot, _ b: Snapshot?, entity: EntityDescription) -> PropertyMask {
        var mask = PropertyMask()
        for (i, attribute) in entity.attributes.enumerated() where !attribute.isTransient && a.values[i] != b?.values[i] {
            mask.insert(i)
        }
        for (r, relationship) in entity.relationships.enumerated() where !relationship.isToMany && a.toOne[r] != b?.toOne[r] {
            mask.insert(entity.attributes.count + r)
        }
        return mask
    }
}
