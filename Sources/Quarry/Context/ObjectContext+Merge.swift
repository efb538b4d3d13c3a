extension ObjectContext {
    /// Merges another context's saved changes into this one (Core Data's
    /// `mergeChanges(fromContextDidSave:)`).
    ///
    /// Registered objects that were updated are refreshed, keeping local edits on top (this
    /// never conflicts); registered objects that were deleted are forgotten; inserted IDs are
    /// announced. Objects that are not registered here are *not* loaded: their IDs are
    /// announced in ``ObjectsDidChange/mergedUpdated`` and ``ObjectsDidChange/mergedInserted``
    /// so observers (such as a fetched-results controller) can decide about them in one batch,
    /// together with the state the save stored for them when the save carries it
    /// (``SaveChanges/carriesSnapshots``). Registered objects are refreshed from that carried
    /// state too, so a merge of a store save reads nothing from the store.
    public func merge(fromDidSave changes: SaveChanges) {
        checkQueue()
        // Children following this context merge what it merged, after it.
        defer { relayToChildren(changes) }
        advanceQueryGeneration()
        processPendingChanges()
        if !prefetchedSnapshots.isEmpty {
            for id in changes.updated { prefetchedSnapshots[id] = nil }
            for id in changes.deleted { prefetchedSnapshots[id] = nil }
        }
        let carried = changes.carriesSnapshots
        let bits = changes.changedBits.count == changes.updated.count
        var change = ObjectsDidChange()
        change.changedKeys = changes.changedKeys
        var toRefresh: [(object: ManagedObject, carried: Snapshot?)] = []
        // The updated objects registered here, by their index in `changes.updated`.
        var registered: [(index: Int, object: ManagedObject)] = []
        if !registry.isEmpty {
            for (n, id) in changes.updated.enumerated() {
                if let object = registry.object(for: id) { registered.append((n, object)) }
            }
        }
        if registered.isEmpty {
            // None is registered (the common case for a large import): the save's own arrays.
            change.mergedUpdated = MergedObjects(ids: changes.updated, snapshots: carried ? changes.updatedSnapshots : nil,
                                                 changedBits: bits ? changes.changedBits : nil)
        } else {
            change.mergedUpdated = MergedObjects(carryingSnapshots: carried, changedBits: bits)
            var next = 0
            for (n, id) in changes.updated.enumerated() {
                if next < registered.count && registered[next].index == n {
                    let object = registered[next].object
                    next += 1
                    change.updated.append(object)
                    if !object.faulted { toRefresh.append((object, carried ? changes.updatedSnapshots[n] : nil)) }
                } else {
                    change.mergedUpdated.append(id, snapshot: carried ? changes.updatedSnapshots[n] : nil,
                                                changedBits: bits ? changes.changedBits[n] : nil)
                }
            }
        }
        if !toRefresh.isEmpty {
            let unknown = toRefresh.filter { $0.carried == nil }.map(\.object.objectID)
            var read: [ObjectID: Snapshot] = [:]
            var unreadable = false
            if !unknown.isEmpty {
                do {
                    read = try readSource.sourceSnapshots(for: unknown)
                } catch {
                    unreadable = true
                    change.readError = ContextReadError("refreshing merged objects", objectIDs: unknown, error: error)
                    lastReadError = change.readError
                }
            }
            for (object, snapshot) in toRefresh {
                // A carried state older than the one loaded (read after a later save) is skipped.
                if let snapshot, let loaded = object.committed, loaded.version > snapshot.version { continue }
                if let s = snapshot ?? read[object.objectID] {
                    object.install(s, keepingChanges: true)
                    change.refreshed.append(object)
                } else if unreadable, !object.hasChanges {
                    // Not refreshed: it becomes a fault, read again (the saved state) when next used.
                    object.turnIntoFault()
                    change.refreshed.append(object)
                }
            }
        }
        for id in changes.deleted {
            change.mergedDeletedIDs.append(id)
            if let object = registry.object(for: id) {
                change.deleted.append(object)
                forget(object)
                object.deleted = true
            }
        }
        if registry.isEmpty {
            change.mergedInserted = MergedObjects(ids: changes.inserted, snapshots: carried ? changes.insertedSnapshots : nil,
                                                  changedBits: nil)
        } else {
            change.mergedInserted = MergedObjects(carryingSnapshots: carried, changedBits: false)
            for (n, id) in changes.inserted.enumerated() where registry.object(for: id) == nil {
                change.mergedInserted.append(id, snapshot: carried ? changes.insertedSnapshots[n] : nil)
            }
        }
        announce(change)
    }

    /// Refreshes `object`: with `mergeChanges` false its pending changes are discarded and it
    /// becomes a fault; with `true` its values are reloaded and its pending changes re-applied
    /// on top (never a conflict).
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue()
        guard object.managedObjectContext === self, !object.inserted else { return }
        var change = ObjectsDidChange()
        if mergeChanges {
            guard !object.faulted else { return }
            do {
                if let s = try readSource.sourceSnapshots(for: [object.objectID])[object.objectID] {
                    object.install(s, keepingChanges: true)
                }
            } catch {
                // Core Data's refresh does not throw: the object keeps its values and the
                // failure is kept where the caller can see it and announced with the change.
                change.readError = ContextReadError("refreshing an object", objectIDs: [object.objectID], error: error)
                lastReadError = change.readError
            }
        } else {
            updatedObjects[object.objectID] = nil
            if deletedObjects.removeValue(forKey: object.objectID) != nil { object.deleted = false }
            object.turnIntoFault()
        }
        change.refreshed = [object]
        announce(change)
    }

    /// Discards every pending change: inserted objects are forgotten, updated and deleted ones
    /// go back to their saved state (as faults).
    public func rollback() {
        checkQueue()
        for object in insertedList where object.inserted {
            object.inserted = false
            object.managedObjectContext = nil
        }
        for object in Array(updatedObjects.values) + Array(deletedObjects.values) {
            object.deleted = false
            object.turnIntoFault()
        }
        // Objects whose only changes were to-many edits on unchanged owners are in updatedObjects too.
        clearInserted()
        updatedObjects = [:]
        deletedObjects = [:]
        unappliedDeleteRules = [:]
        pending = PendingChanges()
        undoStorage?.removeAllActions()
        var change = ObjectsDidChange()
        change.invalidatedAll = false
        announce(change)
    }

    /// Forgets every object and pending change. Observers are told to reload
    /// (``ObjectsDidChange/invalidatedAll``) rather than given per-object deletes.
    public func reset() {
        checkQueue()
        advanceQueryGeneration()
        for object in registry.liveObjects + insertedList.filter(\.inserted) {
            object.turnIntoFault()
            object.inserted = false
            object.deleted = false
            object.managedObjectContext = nil
        }
        registry.removeAll()
        prefetchedSnapshots = [:]
        clearInserted()
        updatedObjects = [:]
        deletedObjects = [:]
        unappliedDeleteRules = [:]
        pending = PendingChanges()
        undoStorage?.removeAllActions()
        var change = ObjectsDidChange()
        change.invalidatedAll = true
        announce(change)
    }
}
