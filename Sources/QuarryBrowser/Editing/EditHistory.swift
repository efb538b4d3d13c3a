import Quarry

/// The browser's own edits, adds and deletes, for `u` (undo) and `Ctrl-R` (redo).
///
/// Each change the browser saves was made in a creator context of its own with an undo
/// manager and one explicit group; the context is kept here after its save, so its group can
/// be undone (and redone) later, before or after other saves, through the same context,
/// whose save goes on to the store. An undo another writer's change would overwrite is
/// refused by the engine (``UndoRefusal``) and the entry stays.
@MainActor
struct EditHistory {
    /// One saved change: the context that made it and what the status line calls it.
    struct Entry {
        /// The creator context holding the change's undo group.
        let context: ObjectContext
        /// "the edit of Ticker ACME", "the add of Ticker XYZ", "the delete of Sector Tech and 3 related objects".
        let name: String
    }

    /// Saved changes, the next to undo last.
    private(set) var undoable: [Entry] = []
    /// Undone changes, the next to redo last.
    private(set) var redoable: [Entry] = []
    /// How many changes are kept (the oldest are dropped).
    let limit = 100

    /// Gives `context` an undo manager with one open group: every change made in it until
    /// ``recordSaved(_:name:)`` is one undoable change.
    static func prepare(_ context: ObjectContext) {
        let undo = ContextUndoManager()
        context.undoManager = undo
        undo.beginUndoGrouping()
    }

    /// Keeps `context`'s change (saved) as the next to undo; a new change drops the redo list.
    mutating func recordSaved(_ context: ObjectContext, name: String) {
        guard let undo = context.undoManager else { return }
        undo.endUndoGrouping()
        guard undo.canUndo else { return }
        undo.setActionName(name)
        undoable.append(Entry(context: context, name: name))
        if undoable.count > limit { undoable.removeFirst(undoable.count - limit) }
        redoable = []
    }

    /// Undoes the newest change and saves the result to the store; returns the change's name
    /// (`nil`: nothing to undo).
    ///
    /// Throws ``UndoRefusal`` when another writer changed what the undo would put back (nothing
    /// changed, the entry stays), or the save's error (the context is rolled back, nothing
    /// reached the store, and the entry is dropped: its context no longer holds its group).
    mutating func undo() throws -> String? {
        try replayNewest(of: \.undoable, onto: \.redoable) { try $0.undo() }
    }

    /// Redoes the newest undone change and saves it (as ``undo()``).
    mutating func redo() throws -> String? {
        try replayNewest(of: \.redoable, onto: \.undoable) { try $0.redo() }
    }

    /// Replays the newest entry of `source` with `step`, saves, and moves the entry to `target`;
    /// a refusal leaves it where it is, any other failure drops it.
    private mutating func replayNewest(of source: WritableKeyPath<EditHistory, [Entry]>, onto target: WritableKeyPath<EditHistory, [Entry]>,
                                       _ step: (ContextUndoManager) throws -> Void) throws -> String? {
        guard let entry = self[keyPath: source].last else { return nil }
        do {
            try Self.replay(entry, step)
        } catch where !(error is UndoRefusal) {
            self[keyPath: source].removeLast()
            throw error
        }
        self[keyPath: source].removeLast()
        self[keyPath: target].append(entry)
        return entry.name
    }

    private static func replay(_ entry: Entry, _ step: (ContextUndoManager) throws -> Void) throws {
        let context = entry.context
        guard let undo = context.undoManager else { return }
        try step(undo)
        do {
            try context.save()
        } catch {
            // The store refused the result: the context goes back to what it saved last.
            context.rollback()
            throw error
        }
    }
}
