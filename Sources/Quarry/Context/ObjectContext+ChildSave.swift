/// One object's part of a child context's save into its parent.
struct ChildObjectChange {
    var id: ObjectID
    var entity: EntityDescription
    var values: [Value]
    var toOne: [ObjectID?]
    var changed: PropertyMask
    var toMany: [Int: [ObjectID]]
    /// The state the child last loaded (updates): what its edits were based on.
    var base: Snapshot?
}

/// A child context's pending changes, collected for its parent (the objects stay pending
/// here until ``ObjectContext/markSaved(_:)``).
struct ChildSave {
    var inserts: [ChildObjectChange]
    var updates: [ChildObjectChange]
    var deletes: [ObjectID]
    var insertedObjects: [ManagedObject]
    var updatedObjects: [ManagedObject]
    var deletedObjects: [ManagedObject]
    /// What the child's did-save announces.
    var changes: SaveChanges
}

extension ObjectContext {
    /// Pushes the pending changes into the parent context (which then has them as its own
    /// pending changes) and marks them saved here.
    func saveToParent() throws -> SaveChanges {
        guard let parent else { return SaveChanges() }
        let save = try collectChildSave()
        try parent.performAndWait {
            try parent.absorbChildSave(inserts: save.inserts, updates: save.updates, deletes: save.deletes)
        }
        markSaved(save)
        return save.changes
    }

    /// The pending changes as a parent absorbs them (nothing is marked saved yet).
    func collectChildSave() throws -> ChildSave {
        let inserts = insertedList.filter(\.inserted)
        let updates = updatedObjects.values.filter { !$0.changedMask.isEmpty }.sorted { $0.objectID < $1.objectID }
        let deletes = deletedObjects.values.sorted { $0.objectID < $1.objectID }
        func change(_ o: ManagedObject) throws -> ChildObjectChange {
            let a = o.entity.attributes.count
            var lists: [Int: [ObjectID]] = [:]
            for (r, rel) in o.entity.relationships.enumerated() where rel.isToMany && (o.inserted ? o.toMany[r] != nil : o.changedMask.contains(a + r)) {
                lists[r] = try toManyContents(of: o, relationship: r)
            }
            return ChildObjectChange(id: o.objectID, entity: o.entity, values: o.values, toOne: o.toOne,
                                     changed: o.changedMask, toMany: lists, base: o.committed)
        }
        let deleteIDs = deletes.map(\.objectID)
        var saved = SaveChanges(inserted: inserts.map(\.objectID), updated: updates.map(\.objectID), deleted: deleteIDs)
        for o in updates { saved.changedKeys[o.objectID] = o.changedKeys }
        return ChildSave(inserts: try inserts.map(change), updates: try updates.map(change), deletes: deleteIDs,
                         insertedObjects: inserts, updatedObjects: updates, deletedObjects: deletes, changes: saved)
    }

    /// Marks the changes of `save` saved here (the parent has them now).
    func markSaved(_ save: ChildSave) {
        for o in save.insertedObjects + save.updatedObjects {
            o.inserted = false
            o.committed = Snapshot(values: o.values, toOne: o.toOne, version: o.committed?.version ?? 0)
            o.changedMask = PropertyMask()
            for key in o.toMany.keys { o.toMany[key]?.clearPending() }
        }
        for o in save.deletedObjects {
            o.didSave()
            forget(o)
        }
        clearInserted()
        updatedObjects = [:]
        deletedObjects = [:]
        unappliedDeleteRules = [:]
        for o in save.insertedObjects + save.updatedObjects { o.didSave() }
    }

    /// Applies a child's saved changes as this context's own pending changes, then announces them.
    func absorbChildSave(inserts: [ChildObjectChange], updates: [ChildObjectChange], deletes: [ObjectID]) throws {
        for c in inserts {
            let object = model.objectClass(for: c.entity).init(entity: c.entity, id: c.id, context: self)
            object.values = c.values
            object.toOne = c.toOne
            object.faulted = false
            object.inserted = true
            for (r, ids) in c.toMany {
                var state = ToManyState()
                state.load([])
                state.replace(with: ids, committed: [])
                object.toMany[r] = state
            }
            trackInserted(object)
            pending.inserted.append(object)
        }
        for c in updates {
            let object = self.object(with: c.id)
            object.fireFault()
            guard !object.faulted, !object.deleted else { continue }
            let a = c.entity.attributes.count
            for i in c.changed.indices {
                if i < a {
                    object.values[i] = c.values[i]
                } else if let ids = c.toMany[i - a] {
                    let current = try toManyContents(of: object, relationship: i - a)
                    var state = object.toMany[i - a] ?? ToManyState()
                    let wanted = Set(ids)
                    for id in current where !wanted.contains(id) { state.remove(id) }
                    for id in ids { state.add(id) }
                    state.reorder(ids)
                    object.toMany[i - a] = state
                } else if i - a < c.toOne.count {
                    object.toOne[i - a] = c.toOne[i - a]
                }
                noteChanged(object, property: i)
            }
        }
        for id in deletes {
            let object = self.object(with: id)
            object.fireFault()
            if object.inserted {
                untrackInserted(object)
                object.deleted = true
            } else if !object.deleted {
                object.deleted = true
                updatedObjects[object.objectID] = nil
                deletedObjects[object.objectID] = object
            }
            pending.deleted[ObjectIdentifier(object)] = object
        }
        processPendingChanges()
    }
}
