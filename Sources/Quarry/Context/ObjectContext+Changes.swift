import Dispatch

extension ObjectContext {
    /// Records that property `index` of `object` changed.
    func noteChanged(_ object: ManagedObject, property index: Int) {
        // Core Data records nothing an object changes while it awakes from a fetch.
        if object.awakingFromFetch { return }
        object.changeCount &+= 1
        // Inserted objects are written whole; no need to track which properties changed, but
        // edits after their insertion was announced are announced as updates.
        if object.inserted {
            if object.insertAnnounced {
                pending.updated[ObjectIdentifier(object)] = object
                scheduleProcessing()
            }
            return
        }
        object.changedMask.insert(index)
        if !object.deleted && updatedObjects[object.objectID] == nil { updatedObjects[object.objectID] = object }
        pending.updated[ObjectIdentifier(object)] = object
        scheduleProcessing()
    }

    /// Arranges for pending changes to be announced at the end of the current queue turn.
    func scheduleProcessing() {
        guard !processScheduled else { return }
        processScheduled = true
        queue.async { [weak self] in self?.processPendingChanges() }
    }

    /// Announces the pending changes now with one ``ObjectsDidChange`` (Core Data's
    /// `processPendingChanges`). Saves call it first.
    public func processPendingChanges() {
        checkQueue()
        processScheduled = false
        guard !pending.isEmpty else { return }
        let change = pending.announcement()
        pending = PendingChanges()
        announce(change)
    }

    /// Marks `object` for deletion at the next save and applies its relationships' delete
    /// rules now: *nullify* removes it from the inverse of each related object, *cascade*
    /// deletes the related objects too, *deny* is checked at save (the save fails while the
    /// relationship is not empty), *no action* leaves related objects untouched.
    public func delete(_ object: ManagedObject) {
        checkQueue()
        guard object.managedObjectContext === self, !object.deleted else { return }
        object.fireFault()
        guard !object.deleted else { return }
        object.prepareForDeletion()
        guard !object.deleted, object.managedObjectContext === self else { return }
        if object.inserted {
            untrackInserted(object)
            object.deleted = true
        } else {
            object.deleted = true
            updatedObjects[object.objectID] = nil
            deletedObjects[object.objectID] = object
        }
        // Recorded before the delete rules, whose changes an undo reverses first.
        object.undoRecorder?.record(.vanished(object))
        pending.deleted[ObjectIdentifier(object)] = object
        scheduleProcessing()
        applyDeleteRules(of: object)
        if !object.inserted && deletedObjects[object.objectID] == nil {
            registry.remove(object.objectID)
            object.managedObjectContext = nil
        }
    }

    private func applyDeleteRules(of object: ManagedObject) {
        unappliedDeleteRules[object.objectID] = nil
        for (r, relationship) in object.entity.relationships.enumerated() {
            let related: [ObjectID]
            if relationship.isToMany {
                do {
                    related = try toManyContents(of: object, relationship: r)
                } catch {
                    // The rules cannot be applied without the destinations: the save refuses
                    // the delete (Validation), never leaving dangling references.
                    let failure = ContextReadError("applying delete rules", objectIDs: [object.objectID], error: error)
                    unappliedDeleteRules[object.objectID] = failure
                    lastReadError = failure
                    continue
                }
            } else {
                related = object.toOne[r].map { [$0] } ?? []
            }
            guard !related.isEmpty else { continue }
            switch relationship.deleteRule {
            case .nullify:
                guard let inverse = model.inverseIndex(of: object.entity, relationship: r) else { continue }
                for id in related {
                    let other = self.object(with: id)
                    if !other.deleted { removeInverse(of: other, relationship: inverse, pointingTo: object.objectID) }
                }
            case .cascade:
                for id in related { delete(self.object(with: id)) }
            case .deny, .noAction:
                continue
            }
        }
    }

    /// Removes `target` from relationship `r` of `object` without touching the inverse.
    func removeInverse(of object: ManagedObject, relationship r: Int, pointingTo target: ObjectID) {
        setMembership(of: target, in: object, relationship: r, present: false)
    }

    /// Adds `target` to relationship `r` of `object` without touching the inverse.
    func addInverse(of object: ManagedObject, relationship r: Int, pointingTo target: ObjectID) {
        setMembership(of: target, in: object, relationship: r, present: true)
    }

    /// Makes `target` a member of relationship `r` of `object` (or not; at `index` of a loaded
    /// ordered to-many), recording the change.
    func setMembership(of target: ObjectID, in object: ManagedObject, relationship r: Int, present: Bool, at index: Int? = nil) {
        object.fireFault()
        guard !object.faulted else { return }
        let changed: Bool
        if object.entity.relationships[r].isToMany {
            var state = object.toMany[r] ?? ToManyState()
            let position = present ? nil : object.undoPosition(of: target, in: r)
            changed = present ? state.add(target, at: index) : state.remove(target)
            if changed {
                object.toMany[r] = state
                if present { object.recordUndo(added: target, to: r) } else { object.recordUndo(removed: target, from: r, at: position) }
            }
        } else if present ? object.toOne[r] != target : object.toOne[r] == target {
            object.recordUndo(toOne: r)
            object.toOne[r] = present ? target : nil
            changed = true
        } else {
            changed = false
        }
        if changed { noteChanged(object, property: object.entity.attributes.count + r) }
    }
}
