/// One object's part of a child context's save into its parent.
struct ChildObjectChange {
    var id: ObjectID
    var entity: EntityDescription
    var values: [Value]
    var toOne: [ObjectID?]
    var changed: PropertyMask
    var toMany: [Int: [ObjectID]]
}

extension ObjectContext {
    /// Pushes the pending changes into the parent context (which then has them as its own
    /// pending changes) and marks them saved here.
    func saveToParent() throws -> SaveChanges {
        guard let parent else { return SaveChanges() }
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
                                     changed: o.changedMask, toMany: lists)
        }
        let insertChanges = try inserts.map(change)
        let updateChanges = try updates.map(change)
        let deleteIDs = deletes.map(\.objectID)
        try parent.performAndWait {
            try parent.absorbChildSave(inserts: insertChanges, updates: updateChanges, deletes: deleteIDs)
        }
        var saved = SaveChanges(inserted: inserts.map(\.objectID), updated: updates.map(\.objectID), deleted: deleteIDs)
        for o in updates { saved.changedKeys[o.objectID] = o.changedKeys }
        for o in inserts + updates {
            o.inserted = false
            o.committed = Snapshot(values: o.values, toOne: o.toOne, version: o.committed?.version ?? 0)
            o.changedMask = PropertyMask()
            for key in o.toMany.keys { o.toMany[key]?.clearPending() }
        }
        for o in deletes { forget(o) }
        clearInserted()
        updatedObjects = [:]
        deletedObjects = [:]
        return saved
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
