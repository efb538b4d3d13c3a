extension ObjectContext {
    /// Whether this child context merges its parent's changes by itself (Core Data's
    /// `automaticallyMergesChangesFromParent`): each save of the parent, and each save the
    /// parent merges from elsewhere, is merged here too (``merge(fromDidSave:)``, on this
    /// context's queue, keeping local edits on top). Off by default; a root context has no
    /// parent and ignores it (a ``PersistentStack``'s main context merges its importers' saves).
    public var automaticallyMergesChangesFromParent: Bool {
        get { followsParent }
        set {
            checkQueue()
            guard let parent, newValue != followsParent else { return }
            followsParent = newValue
            let key = ObjectIdentifier(self)
            if newValue {
                parent.childRelays.withLock {
                    $0[key] = { [weak self] changes in
                        guard let self else { return }
                        self.perform { self.merge(fromDidSave: changes) }
                    }
                }
            } else {
                _ = parent.childRelays.withLock { $0.removeValue(forKey: key) }
            }
        }
    }

    /// Passes `changes` (this context saved or merged them) to the children following it.
    func relayToChildren(_ changes: SaveChanges) {
        guard hasChildren.load(ordering: .relaxed), !changes.isEmpty else { return }
        let relays = childRelays.withLock { Array($0.values) }
        for relay in relays { relay(changes) }
    }
}
