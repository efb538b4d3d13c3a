/// One object's part of a save: its full new state and what changed.
public struct ObjectChange: Sendable {
    /// The object's ID (temporary for inserts until the store assigns a permanent one).
    public var id: ObjectID
    /// The full state to write (every attribute and to-one; `version` is the base version).
    public var snapshot: Snapshot
    /// The state the context last loaded from the store (updates only): the base of
    /// optimistic locking and of by-property merges.
    public var committed: Snapshot?
    /// The properties changed in memory (see ``PropertyMask`` for numbering).
    public var changed: PropertyMask
    /// The new contents of each changed to-many relationship, by relationship index.
    /// Relationships whose inverse is to-one are stored through the inverse's foreign key; the
    /// list still matters for ordered ones (positions) and join-table ones (membership).
    public var toMany: [Int: [ObjectID]]

    /// Creates an object change.
    public init(id: ObjectID, snapshot: Snapshot, committed: Snapshot? = nil, changed: PropertyMask = PropertyMask(),
                toMany: [Int: [ObjectID]] = [:]) {
        self.id = id
        self.snapshot = snapshot
        self.committed = committed
        self.changed = changed
        self.toMany = toMany
    }
}

/// Everything one save writes, applied by a store in one transaction: whole or not at all.
public struct StoreChangeSet: Sendable {
    /// New objects (temporary IDs).
    public var inserts: [ObjectChange] = []
    /// Changed objects (permanent IDs).
    public var updates: [ObjectChange] = []
    /// Deleted objects with the row version the context last saw.
    public var deletes: [(id: ObjectID, version: Int64)] = []
    /// Who saves, for persistent history: the saving context's name (`nil`: the process label).
    public var author: String?
    /// Differences added to derived attributes of objects the save does not otherwise change
    /// (see ``DerivedIncrement``), applied after the updates and deletes.
    public var increments: [DerivedIncrement] = []

    /// Creates an empty change set.
    public init() {}

    /// Whether there is nothing to write.
    public var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && increments.isEmpty }

    /// Rewrites every reference to a temporary ID (object IDs, to-one values, to-many lists).
    public mutating func replaceIDs(_ mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty else { return }
        func fix(_ change: inout ObjectChange) {
            if change.id.isTemporary, let p = mapping[change.id] { change.id = p }
            for i in change.snapshot.toOne.indices {
                if let t = change.snapshot.toOne[i], t.isTemporary, let p = mapping[t] { change.snapshot.toOne[i] = p }
            }
            for (r, ids) in change.toMany { change.toMany[r] = ids.map { mapping[$0] ?? $0 } }
        }
        for i in inserts.indices { fix(&inserts[i]) }
        for i in updates.indices { fix(&updates[i]) }
    }
}

/// What a store reports after committing a ``StoreChangeSet``.
public struct StoreSaveResult: Sendable {
    /// Temporary → permanent ID of every inserted object.
    public var permanentIDs: [ObjectID: ObjectID] = [:]
    /// The snapshot now in the store (new version) of each updated object (and of each row a
    /// conflict resolution wrote), by permanent ID. Inserted rows are not listed: they are
    /// stored exactly as sent, at version 1 (transients as `nil`), under the IDs in
    /// `changes.inserted`.
    public var written: [ObjectID: Snapshot] = [:]
    /// Objects whose in-memory changes were discarded by conflict resolution, with the state
    /// now in the store (`nil`: the row is gone).
    public var rolledBack: [ObjectID: Snapshot?] = [:]
    /// The committed changes, as announced by the did-save notification.
    /// `changes.inserted` lists the permanent IDs in the order of the change set's inserts,
    /// and an inserted row is stored exactly as sent, at version 1 (transients aside): the
    /// context relies on both to finish a save without a lookup per object.
    public var changes = SaveChanges()
    /// The persistent-history transaction the save appended (`nil` when the store records none).
    public var historyToken: HistoryToken?
    /// The objects whose derived attributes the change set's ``StoreChangeSet/increments``
    /// changed (rows that still existed), in order; each is also in ``written`` and in
    /// `changes.updated`.
    public var incremented: [ObjectID] = []

    /// Creates an empty result.
    public init() {}
}

/// The object IDs (and changed keys) of one committed save: the payload of did-save
/// notifications and the input of ``ObjectContext/merge(fromDidSave:)``.
public struct SaveChanges: Sendable, Equatable {
    /// Objects inserted by the save (permanent IDs).
    public var inserted: [ObjectID] = []
    /// Objects updated by the save.
    public var updated: [ObjectID] = []
    /// Objects deleted by the save.
    public var deleted: [ObjectID] = []
    /// The keys that changed, per updated object.
    public var changedKeys: [ObjectID: Set<String>] = [:]
    /// The changed properties of each of ``updated`` as ``PropertyMask/lowBits``, in the same
    /// order, when a store recorded them all (else shorter than `updated`, and unused): lets a
    /// merge rule out an update by two words, not by hashing key names.
    var changedBits: [UInt64] = []
    /// The state each inserted object was stored with, in the order of ``inserted``; empty when
    /// the save did not reach a store (a child context's save into its parent).
    public var insertedSnapshots: [Snapshot] = []
    /// The state each updated object was stored with (new row version), in the order of
    /// ``updated``; empty when the save did not reach a store.
    ///
    /// With these a merge can decide about objects it does not have loaded (does an updated
    /// ticker now match a live query, and where does it sort?) without reading the store.
    public var updatedSnapshots: [Snapshot] = []

    /// Creates an empty set of changes.
    public init(inserted: [ObjectID] = [], updated: [ObjectID] = [], deleted: [ObjectID] = [],
                changedKeys: [ObjectID: Set<String>] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.changedKeys = changedKeys
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// Whether ``insertedSnapshots`` and ``updatedSnapshots`` hold the stored state of every
    /// inserted and updated object.
    public var carriesSnapshots: Bool {
        insertedSnapshots.count == inserted.count && updatedSnapshots.count == updated.count
            && !(inserted.isEmpty && updated.isEmpty)
    }

    /// Records an inserted object and the state it was stored with.
    mutating func recordInsert(_ id: ObjectID, stored: Snapshot) {
        inserted.append(id)
        insertedSnapshots.append(stored)
    }

    /// Makes room for `count` more updated objects (a batch update records 100,000 at once).
    mutating func reserveUpdates(_ count: Int) {
        updated.reserveCapacity(updated.count + count)
        changedKeys.reserveCapacity(changedKeys.count + count)
        changedBits.reserveCapacity(changedBits.count + count)
    }

    /// Records an updated object of `entity`, the properties that changed and the state now
    /// stored; `memo` makes each distinct set of changed keys once per save.
    mutating func recordUpdate(_ id: ObjectID, changed: PropertyMask, of entity: EntityDescription, stored: Snapshot,
                               memo: inout ChangedKeysMemo) {
        updatedSnapshots.append(stored)
        recordUpdate(id, changed: changed, of: entity, memo: &memo)
    }

    /// Records an updated object of `entity` and the properties that changed, without the
    /// state now stored (a set-based batch update writes rows it never reads): the changes
    /// then carry no snapshots (``carriesSnapshots``), and a merge reads what it needs.
    mutating func recordUpdate(_ id: ObjectID, changed: PropertyMask, of entity: EntityDescription, memo: inout ChangedKeysMemo) {
        updated.append(id)
        changedKeys[id] = memo.keys(changed, of: entity)
        changedBits.append(changed.lowBits)
    }
}

/// The changed keys of each entity and changed-property mask a save records, each set made
/// once: a save updating 100,000 objects the same way holds one set of key names, shared, not
/// 100,000 (a `Set` shares its storage when copied).
struct ChangedKeysMemo {
    private var sets: [Int: [PropertyMask: Set<String>]] = [:]
    /// The set made or found last: saves change runs of objects the same way, and comparing
    /// one mask is cheaper than hashing it twice.
    private var last: (entity: Int, mask: PropertyMask, keys: Set<String>)?

    /// The names of the properties in `mask`, of `entity`.
    mutating func keys(_ mask: PropertyMask, of entity: EntityDescription) -> Set<String> {
        if let last, last.entity == entity.index, last.mask == mask { return last.keys }
        let keys: Set<String>
        if let known = sets[entity.index]?[mask] {
            keys = known
        } else {
            keys = Set(mask.keys(in: entity))
            sets[entity.index, default: [:]][mask] = keys
        }
        last = (entity.index, mask, keys)
        return keys
    }
}
