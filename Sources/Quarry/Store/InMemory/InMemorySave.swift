/// One ``PersistentStore/save(_:resolve:)`` applied to a copy of an ``InMemoryStore``'s state.
///
/// The caller commits ``state`` only when ``run(_:resolve:)`` returns, which makes the save
/// atomic: any throw leaves the store as it was.
struct InMemorySave {
    let model: ManagedObjectModel
    let layout: InMemoryLayout
    /// The state being changed (a copy of the store's until committed).
    var state: InMemoryState

    private var result = StoreSaveResult()
    private var lists: [(owner: ObjectID, lists: [Int: [ObjectID]])] = []
    private var deleted = Set<ObjectID>()
    private var touched: [ObjectID] = []
    private var failures: [MergeConflict] = []
    /// The changed keys recorded per entity and mask, made once per save.
    private var keysMemo = ChangedKeysMemo()

    init(model: ManagedObjectModel, layout: InMemoryLayout, state: InMemoryState) {
        self.model = model
        self.layout = layout
        self.state = state
    }

    /// Applies `changes`: permanent IDs, inserts, version-checked updates and deletes, derived
    /// increments, to-many contents, then the uniqueness constraints.
    /// - Throws: ``MergeConflictError`` with every conflict resolved as `.fail`,
    ///   ``StoreError/uniquenessViolation(entity:keys:)``, or ``QuarryError`` for a malformed change.
    mutating func run(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        var changes = changes
        try assignPermanentIDs(&changes)
        for change in changes.inserts { try insert(change) }
        for change in changes.updates { try update(change, resolve: resolve) }
        for (id, version) in changes.deletes { try delete(id, version: version, resolve: resolve) }
        if !failures.isEmpty { throw MergeConflictError(conflicts: failures) }
        for increment in changes.increments { try apply(increment) }
        state.applyLists(lists, layout: layout, model: model)
        state.purge(deleted)
        try state.checkUniqueness(of: touched, model: model)
        return result
    }

    // MARK: Inserts

    private mutating func assignPermanentIDs(_ changes: inout StoreChangeSet) throws {
        var mapping: [ObjectID: ObjectID] = [:]
        for change in changes.inserts where change.id.isTemporary {
            let entity = try entity(of: change.id)
            guard !entity.isAbstract else { throw QuarryError.abstractEntity(entity.name) }
            let pk = (state.lastPrimaryKeys[entity.rootIndex] ?? 0) + 1
            state.lastPrimaryKeys[entity.rootIndex] = pk
            mapping[change.id] = ObjectID(entityIndex: entity.index, primaryKey: pk)
        }
        changes.replaceIDs(mapping)
        result.permanentIDs = mapping
    }

    private mutating func insert(_ change: ObjectChange) throws {
        let entity = try entity(of: change.id)
        let written = try stored(change.snapshot, of: entity, version: 1)
        write(written, id: change.id, entity: entity, reported: false)
        lists.append((change.id, change.toMany))
        result.changes.recordInsert(change.id, stored: written)
    }

    // MARK: Updates

    private mutating func update(_ change: ObjectChange, resolve: (MergeConflict) -> ConflictResolution) throws {
        let entity = try entity(of: change.id)
        let current = state.row(change.id, root: entity.rootIndex)?.snapshot
        let base = change.committed?.version ?? change.snapshot.version
        if let current, current.version == base {
            let written = try merged(change, over: current, entity: entity)
            write(written, id: change.id, entity: entity)
            recordUpdate(change, entity: entity, stored: written)
            return
        }
        let conflict = MergeConflict(objectID: change.id, entityName: entity.name, cachedSnapshot: change.committed,
                                     persistedSnapshot: current, objectSnapshot: change.snapshot, changed: change.changed)
        switch resolve(conflict) {
        case .write(let snapshot):
            let written = try stored(snapshot, of: entity, version: (current?.version ?? 0) + 1)
            write(written, id: change.id, entity: entity)
            recordUpdate(change, entity: entity, stored: written)
        case .keepPersisted:
            result.rolledBack[change.id] = .some(current)
        case .delete:
            remove(change.id, entity: entity, existed: current != nil)
            result.rolledBack[change.id] = .some(nil)
        case .fail:
            failures.append(conflict)
        }
    }

    private mutating func recordUpdate(_ change: ObjectChange, entity: EntityDescription, stored: Snapshot) {
        lists.append((change.id, change.toMany))
        result.changes.recordUpdate(change.id, changed: change.changed, of: entity, stored: stored, memo: &keysMemo)
    }

    /// The persisted row with only the changed properties taken from the change.
    private func merged(_ change: ObjectChange, over current: Snapshot, entity: EntityDescription) throws -> Snapshot {
        let incoming = try stored(change.snapshot, of: entity, version: current.version + 1)
        var merged = current
        merged.version = incoming.version
        let attributeCount = entity.attributes.count
        for i in change.changed.indices {
            if i < attributeCount {
                merged.values[i] = incoming.values[i]
            } else if i - attributeCount < entity.relationships.count {
                merged.toOne[i - attributeCount] = incoming.toOne[i - attributeCount]
            }
        }
        return merged
    }

    // MARK: Derived increments

    /// Adds `increment`'s differences to the row as stored now (see ``DerivedIncrement``),
    /// whatever its version; a row that is gone is skipped.
    private mutating func apply(_ increment: DerivedIncrement) throws {
        let entity = try entity(of: increment.id)
        guard var row = state.row(increment.id, root: entity.rootIndex)?.snapshot else { return }
        for difference in increment.differences {
            guard difference.attribute < row.values.count,
                  let sum = DerivedIncrement.add(difference.by, to: row.values[difference.attribute]) else {
                throw QuarryError.typeMismatch(entity: entity.name, key: entity.attributes[difference.attribute].name,
                                               expected: "a sum of its kind within 64 bits", got: "\(row.values[difference.attribute]) + \(difference.by)")
            }
            row.values[difference.attribute] = sum
        }
        row.version += 1
        write(row, id: increment.id, entity: entity)
        result.changes.recordUpdate(increment.id, changed: increment.changed, of: entity, stored: row, memo: &keysMemo)
        result.incremented.append(increment.id)
    }

    // MARK: Deletes

    private mutating func delete(_ id: ObjectID, version: Int64, resolve: (MergeConflict) -> ConflictResolution) throws {
        let entity = try entity(of: id)
        let current = state.row(id, root: entity.rootIndex)?.snapshot
        if let current, current.version == version {
            remove(id, entity: entity, existed: true)
            return
        }
        let conflict = MergeConflict(objectID: id, entityName: entity.name, cachedSnapshot: nil,
                                     persistedSnapshot: current, objectSnapshot: nil, changed: PropertyMask())
        switch resolve(conflict) {
        case .write(let snapshot):
            let written = try stored(snapshot, of: entity, version: (current?.version ?? 0) + 1)
            write(written, id: id, entity: entity)
            // The whole row was written back: every property may have changed.
            result.changes.updated.append(id)
            result.changes.updatedSnapshots.append(written)
            result.changes.changedBits.append(.max)
            result.rolledBack[id] = .some(written)
        case .keepPersisted:
            result.rolledBack[id] = .some(current)
        case .delete:
            remove(id, entity: entity, existed: current != nil)
        case .fail:
            failures.append(conflict)
        }
    }

    // MARK: Rows

    private mutating func write(_ snapshot: Snapshot, id: ObjectID, entity: EntityDescription, reported: Bool = true) {
        state.rows[entity.rootIndex, default: [:]][id.primaryKey] = InMemoryRow(entityIndex: entity.index, snapshot: snapshot)
        if reported { result.written[id] = snapshot }
        touched.append(id)
    }

    private mutating func remove(_ id: ObjectID, entity: EntityDescription, existed: Bool) {
        guard existed else { return }
        state.rows[entity.rootIndex]?[id.primaryKey] = nil
        deleted.insert(id)
        result.changes.deleted.append(id)
    }

    private func entity(of id: ObjectID) throws -> EntityDescription {
        let index = Int(id.entityIndex)
        guard model.entities.indices.contains(index) else { throw QuarryError.invalidObjectID(id.description) }
        return model.entities[index]
    }

    /// `snapshot` as the store keeps it: transient attributes `.null`, to-many slots `nil`.
    private func stored(_ snapshot: Snapshot, of entity: EntityDescription, version: Int64) throws -> Snapshot {
        guard snapshot.values.count == entity.attributes.count, snapshot.toOne.count == entity.relationships.count else {
            throw QuarryError.invalidValue(
                "\(entity.name) snapshot has \(snapshot.values.count) values and \(snapshot.toOne.count) relationships; " +
                    "the entity has \(entity.attributes.count) and \(entity.relationships.count)")
        }
        var result = snapshot
        result.version = version
        for (i, attribute) in entity.attributes.enumerated() where attribute.isTransient { result.values[i] = .null }
        for (i, relationship) in entity.relationships.enumerated() where relationship.isToMany { result.toOne[i] = nil }
        return result
    }
}
