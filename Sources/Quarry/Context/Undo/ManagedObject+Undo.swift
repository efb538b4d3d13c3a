extension ManagedObject {
    /// The undo manager recording this object's changes, or `nil`. Costs one atomic load while
    /// no context in the process has an undo manager (the importer's setters stay as fast), and
    /// no weak load for an object inserted in the group being recorded (its changes need no
    /// step): a weak load retains the context through its side table, slowly.
    @inline(__always)
    var undoRecorder: ContextUndoManager? {
        if let owner = undoOwner, owner.serial == undoAppearedIn { return nil }
        guard ContextUndoManager.attachedCount.load(ordering: .relaxed) != 0 else { return nil }
        return managedObjectContext?.undoStorage
    }

    /// The undo manager a property change of this object records a step with: none when the
    /// object was inserted in the group being recorded (undoing it takes the whole object out).
    @inline(__always)
    private var propertyStepRecorder: ContextUndoManager? {
        guard let undo = undoRecorder, !undo.skipsProperties(of: self) else { return nil }
        return undo
    }

    /// Records attribute `index`'s value before a set changes it.
    @inline(__always)
    func recordUndo(attribute index: Int) {
        guard let undo = propertyStepRecorder else { return }
        undo.record(.attribute(self, index: index, old: values[index]))
    }

    /// Records to-one `r`'s destination before a set changes it.
    @inline(__always)
    func recordUndo(toOne r: Int) {
        guard let undo = propertyStepRecorder else { return }
        undo.record(.toOne(self, relationship: r, old: toOne[r]))
    }

    /// Records that `member` joined to-many `r`.
    @inline(__always)
    func recordUndo(added member: ObjectID, to r: Int) {
        guard let undo = propertyStepRecorder else { return }
        undo.record(.added(self, relationship: r, member: member))
    }

    /// Records that `member` left to-many `r` from `position`.
    @inline(__always)
    func recordUndo(removed member: ObjectID, from r: Int, at position: Int?) {
        guard let undo = propertyStepRecorder else { return }
        undo.record(.removed(self, relationship: r, member: member, index: position))
    }

    /// Records ordered to-many `r`'s order before a reorder.
    func recordUndo(order r: Int) {
        guard let undo = propertyStepRecorder, let members = toMany[r]?.members else { return }
        undo.record(.reordered(self, relationship: r, old: members))
    }

    /// Where `member` sits in ordered to-many `r` (loaded contents), for an undo to put it back
    /// there; `nil` when nothing records or the position does not matter.
    func undoPosition(of member: ObjectID, in r: Int) -> Int? {
        guard undoRecorder != nil, entity.relationships[r].isOrdered else { return nil }
        return toMany[r]?.members?.firstIndex(of: member)
    }
}
