/// Changes to registered objects not yet announced by objects-did-change.
struct PendingChanges {
    var inserted: [ManagedObject] = []
    var updated: [ObjectIdentifier: ManagedObject] = [:]
    var deleted: [ObjectIdentifier: ManagedObject] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The announcement for these changes (objects inserted then deleted are left out).
    func announcement() -> ObjectsDidChange {
        var change = ObjectsDidChange()
        change.inserted = inserted.filter { $0.inserted }
        let newlyInserted = Set(change.inserted.map(ObjectIdentifier.init))
        for object in change.inserted { object.insertAnnounced = true }
        change.updated = updated.values.filter { !$0.deleted && !newlyInserted.contains(ObjectIdentifier($0)) }
        change.deleted = Array(deleted.values)
        return change
    }
}
