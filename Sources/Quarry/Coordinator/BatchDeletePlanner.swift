/// Plans a batch delete from rows alone: the objects to delete with their cascades, the objects
/// a *nullify* rule updates, and the *deny* rules that refuse it, read from the store without a
/// context, as ``ObjectContext/delete(_:)`` applies the same rules to managed objects.
///
/// Not thread-safe; lives for one attempt of one request.
struct BatchDeletePlanner {
    let store: PersistentStore
    private var model: ManagedObjectModel { store.model }
    /// Every object to delete, with the state it was read in.
    private var deleted: [ObjectID: Snapshot] = [:]
    /// The objects to delete, in the order they were reached.
    private var order: [ObjectID] = []
    /// Per object to delete and deny relationship: the objects it holds there.
    private var denials: [(holder: ObjectID, relationship: String, held: [ObjectID])] = []
    /// Each object that loses a deleted object from relationship `inverse` (by name) of its own.
    private var nullified: [(object: ObjectID, inverse: String, lost: ObjectID)] = []

    /// Above this many objects of one entity, a to-many is read for the whole entity in one
    /// pass (``PersistentStore/allRelatedIDs(ofEntity:relationship:)``) instead of per object.
    private static let wholeEntityReadThreshold = 64

    /// Told as objects are planned.
    private let progress: (@Sendable (BatchProgress) -> Void)?

    init(store: PersistentStore, progress: (@Sendable (BatchProgress) -> Void)? = nil) {
        self.store = store
        self.progress = progress
    }

    /// Whether `id` is among the objects to delete.
    func isDeleted(_ id: ObjectID) -> Bool { deleted[id] != nil }

    /// Adds `ids` and, transitively, what their *cascade* rules reach; notes their *nullify*
    /// and *deny* relationships. Objects no longer in the store are skipped.
    mutating func delete(_ ids: [ObjectID]) throws {
        var frontier = ids
        var total = ids.count
        while !frontier.isEmpty {
            var reached: [ObjectID] = []
            var seen = Set<ObjectID>()
            let pending = frontier.filter { deleted[$0] == nil && seen.insert($0).inserted }
            try store.forEachSnapshotChunk(of: pending) { chunk, rows in
                for id in chunk {
                    guard let row = rows[id] else { continue }
                    deleted[id] = row
                    order.append(id)
                    reached.append(id)
                }
                progress?(BatchProgress(done: order.count, total: total, written: false))
            }
            var next: [ObjectID] = []
            for (e, objects) in Dictionary(grouping: reached, by: { Int($0.entityIndex) }).sorted(by: { $0.key < $1.key }) {
                let entity = model.entities[e]
                for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule != .noAction {
                    for (holder, held) in try destinations(of: objects, entity: entity, relationship: r) where !held.isEmpty {
                        switch relationship.deleteRule {
                        case .cascade: next += held.filter { deleted[$0] == nil }
                        case .deny: denials.append((holder, relationship.name, held))
                        case .nullify:
                            if let inverse = relationship.inverse {
                                for object in held { nullified.append((object, inverse, holder)) }
                            }
                        case .noAction: break
                        }
                    }
                }
            }
            frontier = next
            total = order.count + next.count
        }
    }

    /// What each of `objects` (of `entity`) holds through relationship `r`.
    private func destinations(of objects: [ObjectID], entity: EntityDescription, relationship r: Int) throws -> [(ObjectID, [ObjectID])] {
        if !entity.relationships[r].isToMany {
            return objects.map { ($0, deleted[$0]!.toOne[r].map { [$0] } ?? []) }
        }
        if objects.count > Self.wholeEntityReadThreshold,
           let all = try store.allRelatedIDs(ofEntity: entity.index, relationship: r) {
            return objects.map { ($0, all[$0] ?? []) }
        }
        return try objects.map { ($0, try store.relatedIDs(of: $0, relationship: r)) }
    }

    /// The change set: the nullified objects' updates, then the deletes, each checked against
    /// the version read.
    /// - Throws: ``BatchRequestError/denied(entity:relationship:count:sample:)`` when an object
    ///   to delete still holds a surviving object through a *deny* relationship;
    ///   ``BatchRequestError/invalidValue(entity:key:reason:count:sample:)`` when a nullify would
    ///   empty a required to-one of a surviving object.
    func changes() throws -> StoreChangeSet {
        var failures: [(entity: String, relationship: String, holders: [ObjectID])] = []
        for denial in denials where denial.held.contains(where: { deleted[$0] == nil }) {
            let entity = model.entities[Int(denial.holder.entityIndex)].name
            if let i = failures.firstIndex(where: { $0.entity == entity && $0.relationship == denial.relationship }) {
                failures[i].holders.append(denial.holder)
            } else {
                failures.append((entity, denial.relationship, [denial.holder]))
            }
        }
        if let first = failures.first {
            throw BatchRequestError.denied(entity: first.entity, relationship: first.relationship, count: first.holders.count,
                                           sample: Array(first.holders.sorted().prefix(BatchFailures.sampleSize)))
        }

        var changes = StoreChangeSet()
        let survivors = nullified.filter { deleted[$0.object] == nil }
        var updatedOrder: [ObjectID] = []
        var updated: [ObjectID: (old: Snapshot, new: Snapshot, changed: PropertyMask)] = [:]
        let rows = try store.snapshots(for: Array(Set(survivors.map(\.object))))
        var emptied = BatchFailures()
        for (object, inverseName, lost) in survivors {
            guard let row = rows[object] else { continue } // gone since: nothing to nullify
            let entity = model.entities[Int(object.entityIndex)]
            guard let inverse = entity.relationshipIndex(inverseName) else { continue }
            if updated[object] == nil {
                updated[object] = (row, row, PropertyMask())
                updatedOrder.append(object)
            }
            let relationship = entity.relationships[inverse]
            if !relationship.isToMany {
                // The to-one still names the deleted object: clear it (it may name another by now).
                guard updated[object]!.new.toOne[inverse] == lost else { continue }
                if !relationship.isOptional {
                    emptied.add(entity: entity.name, key: relationship.name,
                                reason: "is required but its destination would be deleted (delete rule Nullify)", id: object)
                }
                updated[object]!.new.toOne[inverse] = nil
            }
            // A to-many loses the member with its row (a foreign key) or its join-table rows.
            updated[object]!.changed.insert(entity.attributes.count + inverse)
        }
        try emptied.throwFirst()
        for object in updatedOrder {
            let u = updated[object]!
            changes.updates.append(ObjectChange(id: object, snapshot: u.new, committed: u.old, changed: u.changed))
        }
        changes.deletes = order.map { ($0, deleted[$0]!.version) }
        return changes
    }
}
