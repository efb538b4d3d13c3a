extension ObjectContext {
    /// The context's undo manager; `nil` (no recording, no cost) until you set one. A manager
    /// serves one context: setting it here attaches it (and detaches the previous one).
    public var undoManager: ContextUndoManager? {
        get { undoStorage }
        set {
            checkQueue()
            if newValue === undoStorage { return }
            if let old = undoStorage {
                old.context = nil
                registry.unpinAll()
                ContextUndoManager.attachedCount.subtract(1, ordering: .relaxed)
            }
            if let newValue {
                precondition(newValue.context == nil, "a ContextUndoManager serves one context")
                newValue.context = self
                ContextUndoManager.attachedCount.add(1, ordering: .relaxed)
            }
            undoStorage = newValue
        }
    }

    /// Undoes the last group of changes (see ``ContextUndoManager/undo()``); does nothing
    /// without an undo manager.
    public func undo() throws { try undoStorage?.undo() }

    /// Redoes the last undone group (see ``ContextUndoManager/redo()``).
    public func redo() throws { try undoStorage?.redo() }

    // MARK: Replaying a group

    /// Applies the inverse of `group`'s steps, newest first, recording them as the group that
    /// reverses this one. Refuses (changing nothing) when another writer saved a property the
    /// group would put back differently than the group left it.
    func replay(_ group: UndoGroup, by manager: ContextUndoManager, operation: String) throws -> UndoGroup {
        checkQueue()
        let conflicts = try undoConflicts(of: group, by: manager, operation: operation)
        guard conflicts.isEmpty else {
            throw UndoRefusal(operation: operation, actionName: group.name, conflicts: conflicts, reason: nil)
        }
        manager.serial &+= 1
        manager.replayGroup = UndoGroup(name: group.name)
        // Deleted objects whose delete was saved come back first, under new IDs, so that the
        // steps pointing at them (their relationships, others' relationships) find them.
        var returning: [ManagedObject] = []
        var seen: Set<ObjectIdentifier> = []
        for case .vanished(let o) in group.steps where o.managedObjectContext == nil && seen.insert(ObjectIdentifier(o)).inserted {
            if !o.objectID.isTemporary {
                let fresh = ObjectID.temporary(entityIndex: Int(o.objectID.entityIndex))
                manager.renames[o.objectID] = fresh
                o.objectID = fresh
            }
            returning.append(o)
        }
        if !returning.isEmpty {
            // An unsaved insert taken out may still sit in the inserted list (as not inserted).
            let listed = Set(insertedList.map(ObjectIdentifier.init))
            for o in returning { bringBack(o, by: manager, listed: listed.contains(ObjectIdentifier(o))) }
        }
        for step in group.steps.reversed() { applyInverse(of: step, by: manager) }
        var reverse = manager.replayGroup!
        manager.replayGroup = nil
        manager.serial &+= 1
        reverse.captureExpectations()
        return reverse
    }

    private func applyInverse(of step: UndoStep, by manager: ContextUndoManager) {
        let a = step.subject.entity.attributes.count
        switch step {
        case .attribute(let o, let i, let old):
            restore(attribute: i, of: o, to: old)
        case .toOne(let o, let r, let old):
            guard usable(o) else { return }
            let target = old.map(manager.resolve)
            guard o.toOne[r] != target else { return }
            o.recordUndo(toOne: r)
            o.toOne[r] = target
            noteChanged(o, property: a + r)
        case .added(let o, let r, let member):
            guard usable(o) else { return }
            setMembership(of: manager.resolve(member), in: o, relationship: r, present: false)
        case .removed(let o, let r, let member, let index):
            guard usable(o) else { return }
            setMembership(of: manager.resolve(member), in: o, relationship: r, present: true, at: index)
        case .reordered(let o, let r, let old):
            guard usable(o), var state = o.toMany[r], state.isLoaded else { return }
            o.recordUndo(order: r)
            state.reorder(old.map(manager.resolve))
            o.toMany[r] = state
            noteChanged(o, property: a + r)
        case .appeared(let o):
            takeOut(o, by: manager)
        case .vanished(let o):
            if o.managedObjectContext === self && o.deleted && !o.inserted { undelete(o) }
            manager.record(.appeared(o))
        }
    }

    /// Whether `o` is in this context with its values loaded.
    private func usable(_ o: ManagedObject) -> Bool {
        guard o.managedObjectContext === self else { return false }
        o.fireFault()
        return !o.faulted
    }

    private func restore(attribute i: Int, of o: ManagedObject, to old: Value) {
        guard usable(o), o.values[i] != old else { return }
        o.recordUndo(attribute: i)
        o.values[i] = old
        if o.inserted {
            if o.insertAnnounced { noteChanged(o, property: i) } else { o.changeCount &+= 1 }
        } else {
            noteChanged(o, property: i)
        }
    }

    /// Takes `o` out of the graph (the inverse of its insertion, or of an undone delete): an
    /// unsaved insert is forgotten, a stored object is deleted at the next save. Delete rules
    /// do not run: the relationship steps recorded with the insert are reversed on their own.
    private func takeOut(_ o: ManagedObject, by manager: ContextUndoManager) {
        guard o.managedObjectContext === self, !o.deleted else { return }
        if o.inserted {
            untrackInserted(o)
            o.deleted = true
            pending.deleted[ObjectIdentifier(o)] = o
            o.managedObjectContext = nil
        } else {
            o.fireFault()
            o.deleted = true
            updatedObjects[o.objectID] = nil
            deletedObjects[o.objectID] = o
            pending.deleted[ObjectIdentifier(o)] = o
        }
        scheduleProcessing()
        manager.record(.vanished(o))
    }

    /// Cancels the unsaved delete of stored object `o`.
    private func undelete(_ o: ManagedObject) {
        o.deleted = false
        deletedObjects[o.objectID] = nil
        unappliedDeleteRules[o.objectID] = nil
        if !o.changedMask.isEmpty { updatedObjects[o.objectID] = o }
        pending.deleted[ObjectIdentifier(o)] = nil
        pending.updated[ObjectIdentifier(o)] = o
        scheduleProcessing()
    }

    /// Inserts `o` again (its delete was saved, or it was an unsaved insert taken out), with its
    /// values and relationships, under its (new) temporary ID; `listed`: it is still in
    /// ``insertedList`` (as not inserted).
    private func bringBack(_ o: ManagedObject, by manager: ContextUndoManager, listed: Bool) {
        o.managedObjectContext = self
        o.deleted = false
        o.inserted = true
        o.insertAnnounced = false
        o.committed = nil
        o.changedMask = PropertyMask()
        o.faultBatch = nil
        if o.faulted || o.values.count != o.entity.attributes.count {
            o.values = o.entity.defaultValues
            o.toOne = Array(repeating: nil, count: o.entity.relationships.count)
            o.toMany = [:]
            o.faulted = false
        }
        o.toOne = o.toOne.map { $0.map(manager.resolve) }
        var lists: [Int: ToManyState] = [:]
        for (r, state) in o.toMany {
            var fresh = ToManyState()
            for member in state.members ?? state.pendingAdds { fresh.add(manager.resolve(member)) }
            lists[r] = fresh
        }
        o.toMany = lists
        if listed {
            insertedCount += 1
            insertedIndex?[o.objectID] = o
        } else {
            trackInserted(o)
        }
        pending.inserted.append(o)
        scheduleProcessing()
    }
}
