/// How a save operation reaches its database's rows, for what the SQLite and PostgreSQL save
/// operations do alike (``SQLSaveOperation``). Made for one statement's use inside the save's
/// transaction.
protocol SaveRowAccess {
    /// The row of `id` as committed, or `nil` when there is none.
    func snapshot(for id: ObjectID) throws -> Snapshot?
    /// Deletes the row of `id`, only at `version` when one is given; returns whether a row went.
    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool
    /// Deletes the join-table rows of `id` (both sides of each many-to-many).
    func deleteJoinRows(of id: ObjectID) throws
    /// Writes every column of `snapshot` at `version`; re-creates the row unless `exists`.
    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws
}

/// What one save of a SQL store records (its result, the conflicts that failed, the tombstones
/// of deleted objects) and the steps the SQLite and PostgreSQL saves take alike: recording an
/// update, detecting and resolving an optimistic-locking conflict through the merge policy,
/// and a versioned delete. Subclasses write rows their database's way.
///
/// Not thread-safe and never shared: an operation lives for one call of its store's `save`.
class SQLSaveOperation {
    let model: ManagedObjectModel
    let resolve: (MergeConflict) -> ConflictResolution
    /// The entity of the row being written (names the entity of a uniqueness violation).
    var currentEntity: Int?
    var result = StoreSaveResult()
    /// Conflicts the policy resolved to `.fail`: the save throws them at the end.
    private var failed: [MergeConflict] = []
    /// The tombstone JSON of each deleted object that has one (for the history writer).
    private(set) var tombstones: [ObjectID: String] = [:]
    /// Per entity, its transient attributes (never stored).
    private let transientIndices: [[Int]]
    /// Per entity, the attributes a delete keeps in history (empty when the store records none).
    private let tombstoneIndices: [[Int]]

    init(model: ManagedObjectModel, recordsHistory: Bool, resolve: @escaping (MergeConflict) -> ConflictResolution) {
        self.model = model
        self.resolve = resolve
        transientIndices = model.entities.map { e in e.attributes.indices.filter { e.attributes[$0].isTransient } }
        tombstoneIndices = model.entities.map { e in
            recordsHistory ? e.attributes.indices.filter { !e.attributes[$0].isTransient && e.attributes[$0].preservesValueInHistoryOnDeletion } : []
        }
    }

    /// Starts a save: nothing recorded yet.
    func begin() {
        result = StoreSaveResult()
        failed = []
        tombstones = [:]
    }

    /// Throws ``MergeConflictError`` when a conflict resolved to `.fail`.
    func throwFailedConflicts() throws {
        if !failed.isEmpty { throw MergeConflictError(conflicts: failed) }
    }

    /// `snapshot` as the store holds it: at `version`, transient attributes cleared.
    @inline(__always)
    final func stored(_ snapshot: Snapshot, version: Int64, entity: Int) -> Snapshot {
        var s = snapshot
        s.version = version
        for i in transientIndices[entity] { s.values[i] = .null }
        return s
    }

    /// Records that `change` was written at its next version.
    final func recordUpdated(_ change: ObjectChange) {
        let entity = model.entities[Int(change.id.entityIndex)]
        let written = stored(change.snapshot, version: change.snapshot.version + 1, entity: entity.index)
        result.written[change.id] = written
        result.changes.recordUpdate(change.id, changed: change.changed, of: entity, stored: written)
    }

    /// The versioned update of `change` matched no row: reads the row as committed and applies
    /// the merge policy's resolution; returns `false` when it dropped the change.
    final func resolveUpdateConflict(_ change: ObjectChange, rows: some SaveRowAccess) throws -> Bool {
        let entity = model.entities[Int(change.id.entityIndex)]
        currentEntity = entity.index
        let conflict = MergeConflict(objectID: change.id, entityName: entity.name, cachedSnapshot: change.committed,
                                     persistedSnapshot: try rows.snapshot(for: change.id), objectSnapshot: change.snapshot,
                                     changed: change.changed)
        return try apply(resolve(conflict), to: conflict, rows: rows)
    }

    /// A versioned delete (join-table rows go with it); a row changed since it was loaded is a
    /// conflict for the merge policy, a row already gone is the wanted end state.
    final func delete(_ id: ObjectID, version: Int64, rows: some SaveRowAccess) throws {
        let entity = model.entities[Int(id.entityIndex)]
        currentEntity = entity.index
        // The preserved values are read before the row goes (only for entities that have some).
        let tombstone = tombstoneIndices[entity.index].isEmpty ? nil : try rows.snapshot(for: id).flatMap { tombstoneJSON(of: $0, entity: entity) }
        if try rows.deleteRow(id, version: version) {
            tombstones[id] = tombstone
            try rows.deleteJoinRows(of: id)
            result.changes.deleted.append(id)
            return
        }
        guard let persisted = try rows.snapshot(for: id) else {
            // Already deleted elsewhere: the wanted end state holds.
            result.changes.deleted.append(id)
            return
        }
        let conflict = MergeConflict(objectID: id, entityName: entity.name, cachedSnapshot: nil,
                                     persistedSnapshot: persisted, objectSnapshot: nil, changed: PropertyMask())
        _ = try apply(resolve(conflict), to: conflict, rows: rows)
    }

    /// Applies a conflict's resolution; returns whether the object's to-many changes still apply.
    private func apply(_ resolution: ConflictResolution, to conflict: MergeConflict, rows: some SaveRowAccess) throws -> Bool {
        let id = conflict.objectID
        let entity = model.entities[Int(id.entityIndex)]
        switch resolution {
        case .write(let snapshot):
            let version = conflict.newVersion + 1
            try rows.overwrite(id, with: snapshot, version: version, exists: conflict.persistedSnapshot != nil)
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
            _ = try rows.deleteRow(id, version: nil)
            try rows.deleteJoinRows(of: id)
            tombstones[id] = conflict.persistedSnapshot.flatMap { tombstoneJSON(of: $0, entity: entity) }
            result.changes.deleted.append(id)
            return false
        case .fail:
            failed.append(conflict)
            return false
        }
    }

    private func tombstoneJSON(of snapshot: Snapshot, entity: EntityDescription) -> String? {
        HistoryTombstone.encode(snapshot, entity: entity, attributes: tombstoneIndices[entity.index])
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
