/// What a call to ``ObjectContext/save()`` did.
public enum SaveOutcome: Sendable, Equatable {
    /// The changes were written (to the store, or to the parent for a child context).
    case saved(SaveChanges)
    /// There was nothing to save.
    case noChanges
    /// The context is read-only (``ObjectContext/isReadOnly``): nothing was written and the
    /// changes stay pending.
    case ignoredReadOnly
}

extension ObjectContext {
    /// Saves the pending changes: to the store for a root context (one transaction, whole or
    /// not at all), to the parent for a child context.
    ///
    /// Every inserted and updated object is validated first; a failure throws
    /// ``ObjectValidationError`` and nothing is written. Conflicts with changes saved elsewhere,
    /// and clashes on uniqueness constraints (among the saved objects, or with stored rows), are
    /// resolved by ``mergePolicy``: under ``MergePolicy/error`` a clash throws
    /// ``ConstraintConflictError``, under the others the clashing objects are merged into one
    /// (see `docs/uniqueness.md`). On success a ``DidSaveEvent`` is posted.
    @discardableResult
    public func save() throws -> SaveOutcome {
        try save(overwriting: nil).outcome
    }

    /// Saves like ``save()`` and reports how many conflicts with other writers the merge policy
    /// resolved, and every value the save overwrote that another writer had changed since this
    /// context loaded it. Only a context that saves through to the store
    /// (``PersistentStack/creatorContext()``) reports such values: its changed properties are
    /// written with overwrite semantics whatever the parent's merge policy, the properties it
    /// did not change keep the store's values. If the parent's save fails, the parent is left
    /// as it was and the changes stay pending here.
    @discardableResult
    public func saveAndReport() throws -> SaveReport {
        try save(overwriting: nil)
    }

    /// The save; `plan` (a child's save-through) names properties written with overwrite semantics.
    func save(overwriting plan: OverwritePlan?) throws -> SaveReport {
        checkQueue()
        if let saveRefusal { throw QuarryError.refused(saveRefusal) }
        if isReadOnly { return SaveReport(outcome: .ignoredReadOnly) }
        processPendingChanges()
        guard hasChanges else { return SaveReport(outcome: .noChanges) }
        // Changes willSave makes belong to the save, not to an undo group.
        undoStorage?.disableUndoRegistration()
        defer { undoStorage?.enableUndoRegistration() }
        try runWillSave()
        try recomputeDerivedAttributes()
        try validateForSave()
        if savesThroughToStore, let parent { return try saveThrough(into: parent) }
        var overwritten: [OverwrittenValue] = []
        var resolvedConflicts = 0
        let changes: SaveChanges
        if parent == nil {
            // Uniqueness clashes are resolved on the objects, before the change set is made.
            let constraints = try resolveConstraintConflicts()
            changes = try saveToStore(plan: plan, overwritten: &overwritten, resolvedConflicts: &resolvedConflicts)
            finishConstraintMerges(constraints.merges)
            resolvedConflicts += constraints.resolvedClashes
            // A pinned context reads what it just saved (Core Data advances it too).
            advanceQueryGeneration()
        } else {
            changes = try saveToParent()
        }
        announce(DidSaveEvent(changes: changes, contextName: name, contextID: ObjectIdentifier(self),
                              coordinatorID: coordinator.identifier, reachedStore: parent == nil))
        return SaveReport(outcome: .saved(changes), overwritten: overwritten, resolvedConflicts: resolvedConflicts)
    }

    /// The to-many lists a store needs for `object` (only changed, list-stored relationships).
    func persistentLists(of object: ManagedObject) throws -> [Int: [ObjectID]] {
        let listed = object.entity.listStoredRelationshipIndices
        guard !listed.isEmpty else { return [:] }
        let a = object.entity.attributes.count
        var lists: [Int: [ObjectID]] = [:]
        for r in listed where object.inserted ? object.toMany[r] != nil : object.changedMask.contains(a + r) {
            lists[r] = try toManyContents(of: object, relationship: r)
        }
        return lists
    }

    private func saveToStore(plan: OverwritePlan?, overwritten: inout [OverwrittenValue], resolvedConflicts: inout Int) throws -> SaveChanges {
        var inserts = insertedList.filter(\.inserted)
        let updates = updatedObjects.values.filter { !$0.changedMask.isEmpty }.sorted { $0.objectID < $1.objectID }
        var changes = StoreChangeSet()
        changes.author = name
        changes.inserts.reserveCapacity(inserts.count)
        for object in inserts {
            changes.inserts.append(ObjectChange(id: object.objectID, snapshot: object.currentSnapshot,
                                                toMany: try persistentLists(of: object)))
        }
        for object in updates {
            changes.updates.append(ObjectChange(id: object.objectID, snapshot: object.currentSnapshot, committed: object.committed,
                                                changed: object.changedMask, toMany: try persistentLists(of: object)))
        }
        for object in deletedObjects.values.sorted(by: { $0.objectID < $1.objectID }) {
            changes.deletes.append((object.objectID, object.committed?.version ?? 0))
        }
        changes.increments = pendingStoreIncrements
        pendingStoreIncrements = []
        let policy = mergePolicy
        // What the store held under each planned object: the loaded state unless a conflict shows newer.
        var before: [ObjectID: Snapshot] = [:]
        if let plan {
            for change in changes.updates where plan[change.id] != nil { before[change.id] = change.committed }
        }
        var resolved = 0
        let result = try coordinator.save(changes) { conflict in
            let resolution: ConflictResolution
            if let entry = plan?[conflict.objectID] {
                before[conflict.objectID] = conflict.persistedSnapshot
                resolution = Self.resolveThrough(conflict, changed: entry.changed, policy: policy)
            } else {
                resolution = policy.resolve(conflict)
            }
            if case .fail = resolution {} else { resolved += 1 }
            return resolution
        }
        resolvedConflicts = resolved
        if let plan { overwritten = overwrittenValues(plan: plan, before: before, written: result.written) }
        changes = StoreChangeSet()  // drop the change set's references before `apply` checks uniqueness
        clearInserted()
        apply(result, inserts: &inserts, updates: updates)
        if !result.incremented.isEmpty { adoptIncrements(result) }
        return result.changes
    }

    /// Brings the objects whose derived attributes the store incremented in line with the
    /// state it wrote (refreshed as a merge would, so observers see the new values), without
    /// loading the ones that are not registered or are faults.
    private func adoptIncrements(_ result: StoreSaveResult) {
        var change = ObjectsDidChange()
        change.mergedUpdated = MergedObjects(carryingSnapshots: true, changedBits: false)
        for id in result.incremented {
            guard let stored = result.written[id] else { continue }
            prefetchedSnapshots[id] = nil
            change.changedKeys[id] = result.changes.changedKeys[id]
            if let object = registry.object(for: id) {
                change.updated.append(object)
                if !object.faulted {
                    object.adoptIncremented(stored)
                    change.refreshed.append(object)
                }
            } else {
                change.mergedUpdated.append(id, snapshot: stored)
            }
        }
        announce(change)
    }

    /// Brings the context's objects in line with what the store wrote.
    private func apply(_ result: StoreSaveResult, inserts: inout [ManagedObject], updates: [ManagedObject]) {
        let mapping = result.permanentIDs
        undoStorage?.noteSaved(renaming: mapping)
        // References to newly inserted objects become permanent first.
        func settleReferences(of object: ManagedObject) {
            guard !object.toOne.isEmpty || !object.toMany.isEmpty else { return }
            if !mapping.isEmpty {
                for i in object.toOne.indices { if let t = object.toOne[i], let p = mapping[t] { object.toOne[i] = p } }
                for key in object.toMany.keys { object.toMany[key]?.replaceIDs(mapping) }
            }
            for key in object.toMany.keys { object.toMany[key]?.clearPending() }
        }
        for object in inserts { settleReferences(of: object) }
        for object in updates {
            settleReferences(of: object)
            if let written = result.written[object.objectID] { object.adoptWritten(written) }
        }
        // The store lists inserted rows' permanent IDs in insertion order and stores them as sent.
        let keepMapping = hasChildren.load(ordering: .relaxed)
        let announceIDs = observers.hasDidChangeObservers
        var renamed: [ObjectID: ObjectID] = [:]
        // Told after the context is in line with the save (a didSave may change an object).
        var savedInserts: [ManagedObject] = []
        savedInserts.reserveCapacity(inserts.count)
        for (i, permanent) in zip(inserts.indices, result.changes.inserted) {
            let onlyHere = isKnownUniquelyReferenced(&inserts[i])
            let object = inserts[i]
            if keepMapping { permanentIDs[object.objectID] = permanent }
            if announceIDs { renamed[object.objectID] = permanent }
            object.objectID = permanent
            object.inserted = false
            object.adoptInserted()
            savedInserts.append(object)
            // Registration is weak: an object only this save still holds would be released at
            // once, so skip its registry entry (importers save thousands of such objects).
            if !onlyHere {
                // Kept alive by the undo manager's steps: pinned, not weakly registered.
                if object.undoAppearedIn != 0 && undoStorage != nil { registry.pin(object) } else { registry.register(object) }
            }
        }
        if !renamed.isEmpty {
            var change = ObjectsDidChange()
            change.permanentIDs = renamed
            observers.post(change)
        }
        for (id, persisted) in result.rolledBack {
            guard let object = registry.object(for: id) else { continue }
            if let persisted {
                object.deleted = false
                object.install(persisted, keepingChanges: false)
            } else {
                forget(object)
            }
        }
        for object in deletedObjects.values.sorted(by: { $0.objectID < $1.objectID }) where result.rolledBack[object.objectID] == nil {
            object.didSave()
            forget(object)
        }
        clearInserted()
        updatedObjects = [:]
        deletedObjects = [:]
        unappliedDeleteRules = [:]
        for object in savedInserts { object.didSave() }
        for object in updates { object.didSave() }
    }

    /// Unregisters `object` (deleted from the store).
    func forget(_ object: ManagedObject) {
        registry.remove(object.objectID)
        untrackInserted(object)
        updatedObjects[object.objectID] = nil
        deletedObjects[object.objectID] = nil
        object.deleted = false
        object.managedObjectContext = nil
    }
}

extension ManagedObject {
    /// Takes the state of a newly inserted row (as sent, version 1) as committed.
    func adoptInserted() {
        var stored = values
        if entity.storedAttributeIndices.count != entity.attributes.count {
            for i in entity.attributes.indices where entity.attributes[i].isTransient { stored[i] = .null }
        }
        committed = Snapshot(values: stored, toOne: toOne, version: 1)
        if !changedMask.isEmpty { changedMask = PropertyMask() }
    }

    /// Takes the state the store wrote after adding to derived attributes (see
    /// ``DerivedIncrement``): when it is the next version of the one loaded, only those
    /// attributes changed, and the values are taken in place (loaded to-many contents stay);
    /// otherwise another writer changed the row too, and it is installed as a merge would,
    /// pending changes kept.
    func adoptIncremented(_ stored: Snapshot) {
        guard let loaded = committed, loaded.version + 1 == stored.version, loaded.values.count == stored.values.count else {
            install(stored, keepingChanges: true)
            return
        }
        for i in stored.values.indices where loaded.values[i] != stored.values[i] && !changedMask.contains(i) {
            values[i] = stored.values[i]
        }
        committed = stored
    }

    /// Takes the state a save wrote as committed and current (transient values stay).
    func adoptWritten(_ written: Snapshot) {
        committed = written
        if entity.storedAttributeIndices.count == entity.attributes.count {
            values = written.values  // shares the buffer: no copy
        } else {
            var merged = written.values
            for i in entity.attributes.indices where entity.attributes[i].isTransient { merged[i] = values[i] }
            values = merged
        }
        toOne = written.toOne
        if !changedMask.isEmpty { changedMask = PropertyMask() }
    }
}

