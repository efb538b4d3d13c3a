extension ObjectContext {
    /// Refreshes every registered object (Core Data's `refreshAllObjects()`): an object with
    /// unsaved changes reloads its saved state from the source and keeps its changes on top;
    /// an unchanged one becomes a fault (read again on next use). Inserted objects are left
    /// as they are. One ``ObjectsDidChange`` lists them as refreshed.
    public func refreshAllObjects() {
        checkQueue()
        advanceQueryGeneration()
        processPendingChanges()
        var change = ObjectsDidChange()
        var changed: [ManagedObject] = []
        for object in registry.liveObjects where !object.inserted {
            if object.hasChanges && !object.faulted {
                changed.append(object)
            } else if !object.faulted {
                object.turnIntoFault()
            }
            change.refreshed.append(object)
        }
        prefetchedSnapshots = [:]
        if !changed.isEmpty {
            do {
                let snapshots = try readSource.sourceSnapshots(for: changed.map(\.objectID))
                for object in changed { if let s = snapshots[object.objectID] { object.install(s, keepingChanges: true) } }
            } catch {
                // refresh does not throw (as in Core Data): the objects keep their values and
                // the failure is kept and announced.
                change.readError = ContextReadError("refreshing all objects", objectIDs: changed.map(\.objectID), error: error)
                lastReadError = change.readError
            }
        }
        announce(change)
    }
}
