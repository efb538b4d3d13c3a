/// One save of a SQL store: the template every SQL back end runs (``run(_:rows:)``), what it
/// records (its result, the conflicts that failed, the tombstones of deleted objects) and the
/// steps the back ends take alike: allocating keys, runs of inserts and of updates, detecting
/// and resolving an optimistic-locking conflict through the merge policy, versioned deletes,
/// to-many contents. A back end supplies only its row access (``SQLSaveRows``).
///
/// Not thread-safe and never shared: an operation lives for one call of its store's `save`.
final class SQLSaveOperation {
    let model: ManagedObjectModel
    let layout: StoreLayout
    /// What each row statement binds, per entity.
    let slots: RowSlots
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
    /// Per entity, per changed-property mask: the shape of its versioned update.
    private var shapeByMask: [[PropertyMask: SQLUpdateShape]]
    /// Per entity, per slot list: the shape writing it (masks that write the same columns share one).
    private var shapeBySlots: [[[RowSlots.Slot]: SQLUpdateShape]]
    private var shapeCount = 0
    /// The changed keys recorded per entity and mask, made once per save.
    var keysMemo = ChangedKeysMemo()

    init(model: ManagedObjectModel, layout: StoreLayout, slots: RowSlots, recordsHistory: Bool,
         resolve: @escaping (MergeConflict) -> ConflictResolution) {
        self.model = model
        self.layout = layout
        self.slots = slots
        shapeByMask = Array(repeating: [:], count: model.entities.count)
        shapeBySlots = Array(repeating: [:], count: model.entities.count)
        self.resolve = resolve
        transientIndices = model.entities.map { e in e.attributes.indices.filter { e.attributes[$0].isTransient } }
        tombstoneIndices = model.entities.map { e in
            recordsHistory ? e.attributes.indices.filter { !e.attributes[$0].isTransient && e.attributes[$0].preservesValueInHistoryOnDeletion } : []
        }
    }

    /// Writes `changes` through `rows`: keys, inserts, updates, deletes, derived increments,
    /// then (when no conflict failed) to-many contents. Throws ``MergeConflictError`` when a conflict resolves to `.fail`.
    func run(_ changes: StoreChangeSet, rows: some SQLSaveRows) throws -> StoreSaveResult {
        result = StoreSaveResult()
        failed = []
        tombstones = [:]
        var changes = changes
        let mapping = try allocateKeys(for: &changes.inserts, rows: rows)
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping

        try insert(changes.inserts, rows: rows)
        let skipToMany = try update(changes.updates, rows: rows)
        for deleted in changes.deletes { try delete(deleted.id, version: deleted.version, rows: rows) }
        if !failed.isEmpty { throw MergeConflictError(conflicts: failed) }
        for increment in changes.increments { try apply(increment, rows: rows) }
        for change in changes.inserts where !change.toMany.isEmpty { try writeToMany(change, rows: rows) }
        for change in changes.updates where !change.toMany.isEmpty && !skipToMany.contains(change.id) {
            try writeToMany(change, rows: rows)
        }
        currentEntity = nil
        return result
    }

    /// Writes the inserts `next` hands over, run after run, through `rows` (in the caller's
    /// transaction): a batch insert from a sequence. The result lists every inserted object's
    /// permanent ID, in order, and keeps no state or ID mapping, so memory holds one run.
    func runInserts(_ next: () throws -> [ObjectChange]?, rows: some SQLSaveRows) throws -> StoreSaveResult {
        var total = StoreSaveResult()
        while let run = try next() {
            var changes = StoreChangeSet()
            changes.inserts = run
            total.changes.inserted += try self.run(changes, rows: rows).changes.inserted
        }
        result = StoreSaveResult()
        return total
    }

    // MARK: - Keys

    /// Takes the keys the new rows need per root table and maps each temporary ID to a
    /// permanent one of the same entity.
    private func allocateKeys(for inserts: inout [ObjectChange], rows: some SQLSaveRows) throws -> [ObjectID: ObjectID] {
        var countByTable = [Int64](repeating: 0, count: layout.tables.count)
        for change in inserts where change.id.isTemporary {
            countByTable[layout.entities[Int(change.id.entityIndex)].tableIndex] += 1
        }
        var keysByTable = [[Int64]](repeating: [], count: countByTable.count)
        for (table, count) in countByTable.enumerated() where count > 0 {
            keysByTable[table] = try rows.allocateKeys(count, table: table)
        }
        var next = [Int](repeating: 0, count: countByTable.count)
        var mapping: [ObjectID: ObjectID] = [:]
        mapping.reserveCapacity(inserts.count)
        for i in inserts.indices where inserts[i].id.isTemporary {
            let temporary = inserts[i].id
            let table = layout.entities[Int(temporary.entityIndex)].tableIndex
            let permanent = ObjectID(entityIndex: Int(temporary.entityIndex), primaryKey: keysByTable[table][next[table]])
            next[table] += 1
            mapping[temporary] = permanent
            inserts[i].id = permanent
        }
        return mapping
    }

    // MARK: - Rows

    /// The hot path: runs of new rows of one entity, as long as the back end takes.
    private func insert(_ inserts: [ObjectChange], rows: some SQLSaveRows) throws {
        result.written.reserveCapacity(inserts.count)
        result.changes.inserted.reserveCapacity(inserts.count)
        result.changes.insertedSnapshots.reserveCapacity(inserts.count)
        var start = 0
        while start < inserts.count {
            let e = Int(inserts[start].id.entityIndex)
            currentEntity = e
            let maxRows = rows.maxInsertRun(entity: e)
            var end = start + 1
            while end < inserts.count, end - start < maxRows, Int(inserts[end].id.entityIndex) == e { end += 1 }
            try rows.insertRows(inserts[start..<end], entity: e)
            for change in inserts[start..<end] {
                result.changes.recordInsert(change.id, stored: stored(change.snapshot, version: 1, entity: e))
            }
            start = end
        }
    }

    /// Writes `updates` in order; returns the objects whose to-many changes a conflict
    /// resolution dropped.
    ///
    /// Runs of consecutive updates of one shape (as many as the back end takes in one
    /// statement) go together; the rows a run did not update (their `Z_OPT` moved on, or they
    /// are gone) then take the conflict path in their order, so the merge policy sees the same
    /// conflicts, in the same order, as with one `UPDATE` per row.
    private func update(_ updates: [ObjectChange], rows: some SQLSaveRows) throws -> Set<ObjectID> {
        var skipToMany = Set<ObjectID>()
        var start = 0
        while start < updates.count {
            let first = updates[start]
            let shape = updateShape(first)
            currentEntity = shape.entity
            let maxRows = rows.maxUpdateRun(shape)
            var end = start + 1
            if maxRows > 1 {
                var ids: Set<ObjectID> = [first.id]
                while end < updates.count, end - start < maxRows, !ids.contains(updates[end].id),
                      Int(updates[end].id.entityIndex) == shape.entity, updateShape(updates[end]).id == shape.id {
                    ids.insert(updates[end].id)
                    end += 1
                }
            }
            if end - start == 1 {
                if try rows.updateRow(first, shape: shape) {
                    recordUpdated(first)
                } else if try !resolveUpdateConflict(first, rows: rows) {
                    skipToMany.insert(first.id)
                }
            } else {
                let run = updates[start..<end]
                let updated = try rows.updateRows(run, shape: shape)
                for change in run {
                    if updated.contains(change.id.primaryKey) {
                        recordUpdated(change)
                    } else if try !resolveUpdateConflict(change, rows: rows) {
                        skipToMany.insert(change.id)
                    }
                }
            }
            start = end
        }
        return skipToMany
    }

    /// The shape of `change`'s versioned update (planned once per entity and changed mask).
    private func updateShape(_ change: ObjectChange) -> SQLUpdateShape {
        let e = Int(change.id.entityIndex)
        if let shape = shapeByMask[e][change.changed] { return shape }
        let written = slots.changed(change.changed, entity: e)
        let shape = shapeBySlots[e][written] ?? SQLUpdateShape(id: shapeCount, entity: e, slots: written)
        if shape.id == shapeCount {
            shapeCount += 1
            shapeBySlots[e][written] = shape
        }
        shapeByMask[e][change.changed] = shape
        return shape
    }

    /// `snapshot` as the store holds it: at `version`, transient attributes cleared.
    @inline(__always)
    func stored(_ snapshot: Snapshot, version: Int64, entity: Int) -> Snapshot {
        var s = snapshot
        s.version = version
        for i in transientIndices[entity] { s.values[i] = .null }
        return s
    }

    /// Records that `change` was written at its next version.
    private func recordUpdated(_ change: ObjectChange) {
        let entity = model.entities[Int(change.id.entityIndex)]
        let written = stored(change.snapshot, version: change.snapshot.version + 1, entity: entity.index)
        result.written[change.id] = written
        result.changes.recordUpdate(change.id, changed: change.changed, of: entity, stored: written, memo: &keysMemo)
    }

    /// The versioned update of `change` matched no row: reads the row as committed and applies
    /// the merge policy's resolution; returns `false` when it dropped the change.
    private func resolveUpdateConflict(_ change: ObjectChange, rows: some SQLSaveRows) throws -> Bool {
        let entity = model.entities[Int(change.id.entityIndex)]
        currentEntity = entity.index
        let conflict = MergeConflict(objectID: change.id, entityName: entity.name, cachedSnapshot: change.committed,
                                     persistedSnapshot: try rows.snapshot(for: change.id), objectSnapshot: change.snapshot,
                                     changed: change.changed)
        return try apply(resolve(conflict), to: conflict, rows: rows)
    }

    /// A versioned delete (join-table rows go with it); a row changed since it was loaded is a
    /// conflict for the merge policy, a row already gone is the wanted end state.
    private func delete(_ id: ObjectID, version: Int64, rows: some SQLSaveRows) throws {
        let entity = model.entities[Int(id.entityIndex)]
        currentEntity = entity.index
        // The preserved values are read before the row goes (only for entities that have some).
        let tombstone = tombstoneIndices[entity.index].isEmpty ? nil : try rows.snapshot(for: id).flatMap { tombstoneJSON(of: $0, entity: entity) }
        if try rows.deleteRow(id, version: version) {
            tombstones[id] = tombstone
            try deleteJoinRows(of: id, rows: rows)
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
    private func apply(_ resolution: ConflictResolution, to conflict: MergeConflict, rows: some SQLSaveRows) throws -> Bool {
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
            result.changes.recordUpdate(id, changed: changed, of: entity, stored: written, memo: &keysMemo)
            return true
        case .keepPersisted:
            result.rolledBack[id] = .some(conflict.persistedSnapshot)
            return false
        case .delete:
            _ = try rows.deleteRow(id, version: nil)
            try deleteJoinRows(of: id, rows: rows)
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
