extension ObjectContext {
    /// Catches up with store changes that no change set describes: a write by a program that
    /// bypassed Quarry (`sqlite3`), or history pruned before this context's stack merged it.
    ///
    /// Every loaded registered object is re-read in one batch (its pending changes kept on
    /// top); one gone from the store is forgotten and announced as deleted. The announcement
    /// carries ``ObjectsDidChange/storeChangedExternally``, so each fetched-results controller
    /// on this context re-fetches and reports the difference as row changes (O(n) in its
    /// results: nothing says which rows changed). Objects not registered are not loaded.
    public func mergeExternalStoreChange() {
        checkQueue()
        processPendingChanges()
        prefetchedSnapshots = [:]
        let loaded = registry.liveObjects.filter { !$0.faulted && !$0.inserted }
        var change = ObjectsDidChange()
        change.storeChangedExternally = true
        // Unreadable now (the file replaced under us): nothing is forgotten on that account;
        // the failure is announced with the change, and the controllers' re-fetch reports
        // what it can.
        let current: [ObjectID: Snapshot]
        do {
            current = try readSource.sourceSnapshots(for: loaded.map(\.objectID))
        } catch {
            change.readError = ContextReadError("refreshing objects after an outside change", objectIDs: loaded.map(\.objectID), error: error)
            lastReadError = change.readError
            announce(change)
            return
        }
        for object in loaded {
            if let snapshot = current[object.objectID] {
                object.install(snapshot, keepingChanges: true)
                change.refreshed.append(object)
            } else if !object.deleted {
                change.deleted.append(object)
                change.mergedDeletedIDs.append(object.objectID)
                forget(object)
                object.deleted = true
            }
        }
        announce(change)
    }
}
