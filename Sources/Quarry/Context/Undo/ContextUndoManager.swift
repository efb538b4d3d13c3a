import Synchronization

/// Undo and redo for one ``ObjectContext``: Core Data's `NSUndoManager` on a managed object
/// context, for the object graph.
///
/// A context has none until you give it one (as every context in Core Data on iOS, and every
/// background context everywhere):
///
/// ```swift
/// context.undoManager = ContextUndoManager()
/// context.performAndWait { ticker.price = 12 }    // one group: one perform block
/// context.performAndWait { try? context.undo() }  // price is back; redo() sets 12 again
/// ```
///
/// **What is recorded**: every attribute set, both sides of every relationship change,
/// inserts and deletes (a delete's cascades and nullified inverses with it), made through the
/// object API on the context's queue. Changes merged from other contexts, a child's save, and
/// changes made by `willSave` during a save are not recorded (Core Data's merges are not
/// either): an undo puts back the context's own edits.
///
/// **Groups**: with ``groupsByEvent`` (the default) the changes of one `perform` or outermost
/// `performAndWait` block form one group, and changes made outside any block form one group per
/// turn of the context's queue. ``beginUndoGrouping()`` / ``endUndoGrouping()`` make explicit
/// groups (nested ones belong to the outermost). ``levelsOfUndo`` caps how many groups are kept.
///
/// **Across saves**: undoing a change that was saved makes a new change the next save writes
/// (an undone insert becomes a delete, an undone saved delete inserts the object again under a
/// new ID, with its values and relationships). When another writer saved a different value
/// for a property the group would put back (or deleted its object), the undo is refused with
/// ``UndoRefusal`` naming each one, and changes nothing: never a silent overwrite.
///
/// Confined to its context's queue, like the context: every method must be called there
/// (`@unchecked Sendable` so that `perform` blocks can capture it).
public final class ContextUndoManager: @unchecked Sendable {
    /// How many undo managers are attached to a context, in the whole process: object setters
    /// look no further while it is zero (no weak context reference loaded per set).
    static let attachedCount = Atomic<Int>(0)

    /// The context the manager records (set by ``ObjectContext/undoManager``).
    weak var context: ObjectContext?
    /// Closed groups, oldest first.
    var undoStack: [UndoGroup] = []
    /// Undone groups, the next to redo last.
    var redoStack: [UndoGroup] = []
    /// The group recording now (an event's or an explicit one).
    var openGroup: UndoGroup?
    /// The group an undo or redo records its own changes into (it goes to the other stack).
    var replayGroup: UndoGroup?
    /// Identifies the recording group: an object inserted in it records no property steps
    /// (undoing the group takes the whole object out, redoing brings it back as it is).
    var serial: UInt32 = 1
    /// Nesting of explicit groups.
    public private(set) var groupingLevel = 0
    /// How many times registration was disabled and not yet enabled again.
    private var disabledCount = 0
    /// Saved-then-deleted objects' IDs replaced when an undo inserts them again.
    var renames: [ObjectID: ObjectID] = [:]
    /// Each save's temporary-to-permanent mapping, as the save made it (kept whole: an import
    /// of a million objects pays nothing per object here).
    var savedRenames: [[ObjectID: ObjectID]] = []

    /// How many groups are kept (the oldest are dropped beyond it); `0` keeps every group.
    public var levelsOfUndo = 0 {
        didSet { trimUndoStack() }
    }
    /// Whether each `perform` block (or queue turn) makes one group (Core Data's
    /// `groupsByEvent`); when `false`, changes outside explicit groups are not recorded.
    public var groupsByEvent = true

    /// A new manager; attach it with ``ObjectContext/undoManager``.
    public init() {}

    // MARK: State

    /// Whether there is a group to undo (an open event group counts: ``undo()`` closes it).
    public var canUndo: Bool { !undoStack.isEmpty || !(openGroup?.steps.isEmpty ?? true) }
    /// Whether there is an undone group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the group ``undo()`` would undo (empty when unnamed or none).
    public var undoActionName: String {
        if let openGroup, !openGroup.steps.isEmpty { return openGroup.name }
        return undoStack.last?.name ?? ""
    }
    /// The name of the group ``redo()`` would redo.
    public var redoActionName: String { redoStack.last?.name ?? "" }
    /// Whether changes are being recorded now (not disabled, not inside an undo or redo's
    /// bookkeeping).
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Names the group being recorded (or, when none is open, the last one closed): the
    /// action's name, shown as "Undo <name>".
    public func setActionName(_ name: String) {
        if openGroup != nil { openGroup!.name = name } else if !undoStack.isEmpty { undoStack[undoStack.count - 1].name = name }
    }

    /// Stops recording until ``enableUndoRegistration()`` (calls nest).
    public func disableUndoRegistration() { disabledCount += 1 }
    /// Resumes recording after ``disableUndoRegistration()``.
    public func enableUndoRegistration() { disabledCount = max(0, disabledCount - 1) }

    /// Forgets every undo and redo group (the context's `reset()` and `rollback()` call it).
    public func removeAllActions() {
        releaseOwnership(of: everyGroup)
        undoStack = []
        redoStack = []
        openGroup = nil
        groupingLevel = 0
        renames = [:]
        savedRenames = []
        context?.registry.unpinAll()
    }

    // MARK: Grouping

    /// Opens an explicit group: every change until the matching ``endUndoGrouping()`` is undone
    /// as one. An event group with changes is closed first; nested calls join the outer group.
    public func beginUndoGrouping() {
        if groupingLevel == 0 { closeOpenGroup() }
        groupingLevel += 1
        if openGroup == nil { open() }
    }

    /// Closes the explicit group ``beginUndoGrouping()`` opened (the outermost closes it).
    public func endUndoGrouping() {
        guard groupingLevel > 0 else { return }
        groupingLevel -= 1
        if groupingLevel == 0 { closeOpenGroup() }
    }

    /// The end of a `perform` block: its event group closes (explicit groups stay open).
    func endEvent() {
        if groupingLevel == 0 { closeOpenGroup() }
    }

    private func open() {
        serial &+= 1
        openGroup = UndoGroup()
    }

    /// Closes the open group: it goes on the undo stack when it recorded anything.
    func closeOpenGroup() {
        guard var group = openGroup else { return }
        openGroup = nil
        serial &+= 1  // objects inserted in the group record their changes again
        guard !group.steps.isEmpty else { return }
        group.captureExpectations()
        undoStack.append(group)
        trimUndoStack()
    }

    private func trimUndoStack() {
        guard levelsOfUndo > 0 && undoStack.count > levelsOfUndo else { return }
        releaseOwnership(of: undoStack.prefix(undoStack.count - levelsOfUndo))
        undoStack.removeFirst(undoStack.count - levelsOfUndo)
    }

    /// Clears ``ManagedObject/undoOwner`` on the objects `groups` inserted, before the groups
    /// (and, maybe, the manager) go: the reference is not retained.
    func releaseOwnership<Groups: Sequence<UndoGroup>>(of groups: Groups) {
        for group in groups {
            for case .appeared(let o) in group.steps where o.undoOwner === self { o.undoOwner = nil }
        }
    }

    /// The undo and redo groups, the open group and the one a replay is recording.
    private var everyGroup: [UndoGroup] { undoStack + redoStack + [openGroup, replayGroup].compactMap { $0 } }

    deinit {
        releaseOwnership(of: everyGroup)
    }

    // MARK: Recording

    /// Whether `object`'s property changes need no step: it was inserted in the recording group.
    func skipsProperties(of object: ManagedObject) -> Bool { object.undoAppearedIn == serial }

    /// Appends `step` to the recording group (opening an event group when none is open).
    func record(_ step: UndoStep) {
        guard disabledCount == 0 else { return }
        if replayGroup != nil {
            if case .appeared(let o) = step { o.undoAppearedIn = serial; o.undoOwner = self }
            replayGroup!.steps.append(step)
            return
        }
        if openGroup == nil {
            guard groupsByEvent else { return }
            open()
            scheduleEventClose()
        }
        // A new change makes the undone groups unreachable.
        if !redoStack.isEmpty {
            releaseOwnership(of: redoStack)
            redoStack = []
        }
        if case .appeared(let o) = step { o.undoAppearedIn = serial; o.undoOwner = self }
        openGroup!.steps.append(step)
    }

    /// Closes the event group at the end of this turn of the context's queue, for changes made
    /// outside `perform` blocks (a block's end closes it sooner).
    private func scheduleEventClose() {
        guard let context else { return }
        let group = serial
        context.queue.async { [weak self] in
            guard let self, self.groupingLevel == 0, self.serial == group else { return }
            self.closeOpenGroup()
        }
    }

    /// The ID `id` goes by now: a temporary ID a save made permanent, a deleted object's ID
    /// an undo replaced.
    func resolve(_ id: ObjectID) -> ObjectID {
        var id = id
        var hops = 0
        while hops < 64 {
            if id.isTemporary, let saved = savedRenames.lazy.compactMap({ $0[id] }).first {
                id = saved
            } else if let next = renames[id] {
                id = next
            } else {
                break
            }
            hops += 1
        }
        return id
    }
}

extension ContextUndoManager {
    /// Undoes the last group: closes the open event group, puts back what the newest group
    /// changed, and makes it redoable. Does nothing when there is nothing to undo.
    ///
    /// - Throws: ``UndoRefusal`` when another writer saved one of the group's properties (or
    ///   deleted one of its objects) since, or while an explicit group is open; nothing changes.
    public func undo() throws {
        try replayNewest(of: \.undoStack, onto: \.redoStack, operation: "undo", actionName: undoActionName)
    }

    /// Redoes the last undone group. Does nothing when there is nothing to redo.
    ///
    /// - Throws: ``UndoRefusal`` as ``undo()`` does.
    public func redo() throws {
        try replayNewest(of: \.redoStack, onto: \.undoStack, operation: "redo", actionName: redoActionName)
        trimUndoStack()
    }

    /// Replays the newest group of `source` and puts the group reversing it on `target`.
    private func replayNewest(of source: ReferenceWritableKeyPath<ContextUndoManager, [UndoGroup]>,
                              onto target: ReferenceWritableKeyPath<ContextUndoManager, [UndoGroup]>,
                              operation: String, actionName: String) throws {
        guard let context else { return }
        context.checkQueue()
        guard groupingLevel == 0 else {
            throw UndoRefusal(operation: operation, actionName: actionName, conflicts: [],
                              reason: "an explicit undo group is still open (endUndoGrouping first)")
        }
        closeOpenGroup()
        guard let group = self[keyPath: source].last else { return }
        let reverse = try context.replay(group, by: self, operation: operation)
        releaseOwnership(of: [group])
        self[keyPath: source].removeLast()
        self[keyPath: target].append(reverse)
    }
}

extension ContextUndoManager {
    /// Follows a save's temporary-to-permanent renames (while any group may point at them).
    func noteSaved(renaming mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty, !undoStack.isEmpty || !redoStack.isEmpty || openGroup != nil else { return }
        savedRenames.append(mapping)
        if savedRenames.count > 64 {
            // Many small saves: one table answers faster than many.
            var merged: [ObjectID: ObjectID] = [:]
            for batch in savedRenames { merged.merge(batch) { _, new in new } }
            savedRenames = [merged]
        }
    }
}
