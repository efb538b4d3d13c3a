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
        for expectation in Array(group.expectations.values) + group.appearedExpectations {
            let o = expectation.object
            if o.managedObjectContext == nil {
                // Not deleted by this group (those are not expected): by another writer.
                conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: nil, expected: "", found: ""))
                continue
            }
            // A child's saved insert keeps its temporary ID here; its parent knows the row's.
            guard o.managedObjectContext === self, !o.inserted, !o.deleted, !resolve(o.objectID).isTemporary else { continue }
            checked.append(expectation)
        }
        guard !checked.isEmpty else { return conflicts }
        // A context that saves through to the store is checked against the store itself (its
        // parent may not have merged another process's write yet).
        let reader: ObjectSource = savesThroughToStore ? coordinator : source
        let current: [ObjectID: Snapshot]
        do {
            current = try reader.sourceSnapshots(for: checked.map { resolve($0.object.objectID) })
        } catch {
            throw UndoRefusal(operation: operation, actionName: group.name, conflicts: [],
                              reason: "the store could not be read to check for other writers' changes: \(error)")
        }
        for expectation in checked {
            let o = expectation.object
            guard let now = current[resolve(o.objectID)] else {
                conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: nil, expected: "", found: ""))
                continue
            }
            let a = o.entity.attributes.count
            for p in (expectation.touched ?? o.entity.everyPropertyMask).indices where !o.changedMask.contains(p) {
                if p < a {
                    guard !o.entity.attributes[p].isTransient, p < now.values.count, now.values[p] != expectation.values[p] else { continue }
                    conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: o.entity.attributes[p].name,
                                           expected: expectation.values[p].description, found: now.values[p].description))
                } else {
                    let r = p - a
                    guard !o.entity.relationships[r].isToMany, r < now.toOne.count else { continue }
                    let left = expectation.toOne[r].map { resolve(manager.resolve($0)) }, found = now.toOne[r].map { resolve(manager.resolve($0)) }
                    guard left != found else { continue }
                    conflicts.append(.init(entity: o.entity.name, objectID: o.objectID, key: o.entity.relationships[r].name,
                                           expected: left.map { "\($0)" } ?? "nil", found: found.map { "\($0)" } ?? "nil"))
                }
            }
        }
        // An object both inserted and changed by the group is checked twice: one line each.
        var seen: Set<String> = []
        return conflicts.sorted { ($0.objectID, $0.key ?? "") < ($1.objectID, $1.key ?? "") }
            .filter { seen.insert("\($0.objectID)/\($0.key ?? "")").inserted }
    }
}
