/// The properties a child changed per object, with the state its edits were based on: a
/// save-through writes them over whatever the store holds.
typealias OverwritePlan = [ObjectID: (changed: PropertyMask, base: Snapshot?)]

extension ObjectContext {
    /// A save-through (``savesThroughToStore``): the pending changes go into the parent and
    /// the parent saves them at once, with overwrite semantics for the properties changed here
    /// whatever the parent's merge policy. If the parent's save fails or is ignored, the parent
    /// is left as it was and the changes stay pending here.
    func saveThrough(into parent: ObjectContext) throws -> SaveReport {
        let save = try collectChildSave()
        let report = try parent.performAndWait { try parent.absorbAndSave(save) }
        guard case .saved = report.outcome else { return report }
        markSaved(save)
        announce(DidSaveEvent(changes: save.changes, contextName: name, contextID: ObjectIdentifier(self),
                              coordinatorID: coordinator.identifier, reachedStore: false))
        return report
    }

    /// Absorbs a child's save-through and saves it; on failure takes the child's changes out again.
    private func absorbAndSave(_ child: ChildSave) throws -> SaveReport {
        processPendingChanges()
        var plan: OverwritePlan = [:]
        for update in child.updates { plan[update.id] = (update.changed, update.base) }
        do {
            try absorbChildSave(inserts: child.inserts, updates: child.updates, deletes: child.deletes)
            let report = try save(overwriting: plan)
            if report.outcome == .ignoredReadOnly { revertAbsorbed(child) }
            return report
        } catch {
            revertAbsorbed(child)
            throw error
        }
    }

    /// Takes a child's absorbed changes out again: its inserts are forgotten, its updated and
    /// deleted objects go back to their saved state (as faults), so a later save writes none of it.
    private func revertAbsorbed(_ child: ChildSave) {
        var change = ObjectsDidChange()
        for insert in child.inserts {
            if let object = lookup(insert.id) { forget(object) }
        }
        for id in child.updates.map(\.id) + child.deletes {
            guard let object = registry.object(for: id) else { continue }
            updatedObjects[id] = nil
            deletedObjects[id] = nil
            object.deleted = false
            object.turnIntoFault()
            change.refreshed.append(object)
        }
        pending = PendingChanges()
        announce(change)
    }

    /// How a save-through resolves a conflict on an object in `plan`: the parent's policy first,
    /// then the child's changed properties are written over the result (overwrite).
    static func resolveThrough(_ conflict: MergeConflict, changed: PropertyMask, policy: MergePolicy) -> ConflictResolution {
        guard let persisted = conflict.persistedSnapshot, let object = conflict.objectSnapshot else { return policy.resolve(conflict) }
        var merged = persisted
        if case .write(let resolved) = policy.resolve(conflict) { merged = resolved }
        let attributeCount = object.values.count
        for i in changed.indices {
            if i < attributeCount {
                merged.values[i] = object.values[i]
            } else if i - attributeCount < object.toOne.count {
                merged.toOne[i - attributeCount] = object.toOne[i - attributeCount]
            }
        }
        return .write(merged)
    }

    /// The values of `plan`'s objects that the save replaced after another writer changed them:
    /// `before` is the store's state each object was written over, `written` what was written.
    func overwrittenValues(plan: OverwritePlan, before: [ObjectID: Snapshot], written: [ObjectID: Snapshot]) -> [OverwrittenValue] {
        var found: [OverwrittenValue] = []
        for (id, entry) in plan.sorted(by: { $0.key < $1.key }) {
            guard let base = entry.base, let old = before[id], let new = written[id] else { continue }
            let entity = model.entities[Int(id.entityIndex)]
            let a = entity.attributes.count
            for i in entry.changed.indices {
                let (theirs, mine, edited): (Value, Value, Value)
                if i < a {
                    guard i < old.values.count, i < new.values.count, i < base.values.count else { continue }
                    (theirs, mine, edited) = (old.values[i], new.values[i], base.values[i])
                } else if i - a < entity.relationships.count, !entity.relationships[i - a].isToMany {
                    let r = i - a
                    guard r < old.toOne.count, r < new.toOne.count, r < base.toOne.count else { continue }
                    (theirs, mine, edited) = (uriValue(old.toOne[r]), uriValue(new.toOne[r]), uriValue(base.toOne[r]))
                } else {
                    continue
                }
                guard theirs != edited, theirs != mine else { continue }
                let name = i < a ? entity.attributes[i].name : entity.relationships[i - a].name
                found.append(OverwrittenValue(objectID: id, entityName: entity.name, property: name, overwritten: theirs, written: mine))
            }
        }
        return found
    }

    private func uriValue(_ id: ObjectID?) -> Value {
        guard let id else { return .null }
        return .uri(coordinator.uri(for: id))
    }
}
