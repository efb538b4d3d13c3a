extension ObjectContext {
    /// The properties `group` would put back that another writer saved differently since the
    /// group left them, and the objects it needs that another writer deleted.
    ///
    /// Only objects whose state this context already saved (or loaded) are checked, against
    /// what the context's source holds now (the store, or the parent context); a property
    /// with an unsaved change here is this context's own and is not checked. To-many contents
    /// are not compared.
    func undoConflicts(of group: UndoGroup, by manager: ContextUndoManager, operation: String) throws -> [UndoRefusal.Conflict] {
        var checked: [UndoExpectation] = []
        var conflicts: [UndoRefusal.Conflict] = []
        for expectation in group.expectations.values {
            let o = expectation.object
            if o.managedObjectContext == nil {
                // Not deleted by this group (those are not expected): by another writer.
                conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: nil, expected: "", found: ""))
                continue
            }
            guard o.managedObjectContext === self, !o.inserted, !o.deleted, !o.objectID.isTemporary else { continue }
            checked.append(expectation)
        }
        guard !checked.isEmpty else { return conflicts }
        let current: [ObjectID: Snapshot]
        do {
            current = try source.sourceSnapshots(for: checked.map(\.object.objectID))
        } catch {
            throw UndoRefusal(operation: operation, actionName: group.name, conflicts: [],
                              reason: "the store could not be read to check for other writers' changes: \(error)")
        }
        for expectation in checked {
            let o = expectation.object
            guard let now = current[o.objectID] else {
                conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: nil, expected: "", found: ""))
                continue
            }
            let a = o.entity.attributes.count
            for p in expectation.touched.indices where !o.changedMask.contains(p) {
                if p < a {
                    guard !o.entity.attributes[p].isTransient, p < now.values.count, now.values[p] != expectation.values[p] else { continue }
                    conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: o.entity.attributes[p].name,
                                           expected: expectation.values[p].description, found: now.values[p].description))
                } else {
                    let r = p - a
                    guard !o.entity.relationships[r].isToMany, r < now.toOne.count else { continue }
                    let left = expectation.toOne[r].map(manager.resolve), found = now.toOne[r].map(manager.resolve)
                    guard left != found else { continue }
                    conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: o.entity.relationships[r].name,
                                           expected: left.map { "\($0)" } ?? "nil", found: found.map { "\($0)" } ?? "nil"))
                }
            }
        }
        return conflicts.sorted { ($0.objectID, $0.key ?? "") < ($1.objectID, $1.key ?? "") }
    }
}
