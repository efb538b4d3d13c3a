/// The net effect of a run of history transactions on each object: what a did-save merge of
/// all of them at once must announce.
///
/// An object inserted and then updated is announced as inserted; updated twice, once with the
/// union of the changed keys; deleted after anything, as deleted (also when it was inserted in
/// the same run: a context that fetched in between may have it).
struct HistoryChangeSet: Equatable {
    /// Objects inserted, in the order first seen.
    var inserted: [ObjectID] = []
    /// Objects updated (and not inserted or deleted in the run), in the order first seen.
    var updated: [ObjectID] = []
    /// Objects deleted, in the order seen.
    var deleted: [ObjectID] = []
    /// The keys each of ``updated`` changed (absent when history recorded none).
    var changedKeys: [ObjectID: Set<String>] = [:]

    /// The net changes of `transactions` (oldest first).
    init(_ transactions: [HistoryTransaction]) {
        enum Net { case inserted, updated, deleted }
        var net: [ObjectID: Net] = [:]
        var order: [ObjectID] = []
        // Updated at least once with no keys recorded: the keys are unknown, none may be ruled out.
        var unknownKeys: Set<ObjectID> = []
        for transaction in transactions {
            for change in transaction.changes {
                let id = change.objectID
                let before = net[id]
                if before == nil { order.append(id) }
                switch (change.type, before) {
                case (.insert, _):
                    net[id] = .inserted
                case (.update, nil), (.update, .updated?):
                    net[id] = .updated
                    if change.changedKeys.isEmpty { unknownKeys.insert(id) } else { changedKeys[id, default: []].formUnion(change.changedKeys) }
                case (.update, _):
                    break
                case (.delete, _):
                    net[id] = .deleted
                }
            }
        }
        for id in order {
            switch net[id]! {
            case .inserted: inserted.append(id)
            case .updated: updated.append(id)
            case .deleted: deleted.append(id)
            }
        }
        changedKeys = changedKeys.filter { net[$0.key] == .updated && !unknownKeys.contains($0.key) }
    }

    /// Whether nothing changed.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The did-save change set for a merge, carrying the current state of every inserted and
    /// updated object read in one batch from `store` (so a fetched-results controller decides
    /// about them without faulting). An object gone by now (deleted by a commit after the run)
    /// is announced as deleted.
    func saveChanges(reading store: PersistentStore) throws -> SaveChanges {
        let current = inserted.isEmpty && updated.isEmpty ? [:] : try store.snapshots(for: inserted + updated)
        var changes = SaveChanges()
        for id in inserted {
            if let snapshot = current[id] { changes.recordInsert(id, stored: snapshot) } else { changes.deleted.append(id) }
        }
        for id in updated {
            guard let snapshot = current[id] else { changes.deleted.append(id); continue }
            changes.updated.append(id)
            changes.updatedSnapshots.append(snapshot)
            if let keys = changedKeys[id] { changes.changedKeys[id] = keys }
        }
        changes.deleted += deleted
        return changes
    }
}
