/// A position in a fetched-results controller: section and row.
public struct RowPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The row within the section.
    public var row: Int

    /// Creates a row path.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Whether `a` comes before `b`: by section, then by row.
    public static func < (a: RowPath, b: RowPath) -> Bool { (a.section, a.row) < (b.section, b.row) }
    public var description: String { "[\(section), \(row)]" }
}

/// What happened to a section or an object (Core Data's `NSFetchedResultsChangeType`).
public enum ResultsChangeType: Int, Sendable {
    /// Inserted (`newIndexPath` / section index in the new state).
    case insert = 1
    /// Deleted (`indexPath` / section index in the old state).
    case delete = 2
    /// Moved: from `indexPath` (old state) to `newIndexPath` (new state); implies an update.
    case move = 3
    /// Changed in place (`indexPath` in the old state).
    case update = 4
}

/// Receives a fetched-results controller's changes, with Core Data's semantics.
///
/// For one change event the controller calls ``controllerWillChangeContent(_:)``, then every
/// section change (deletes, then inserts), then every object change (deletes, inserts, moves,
/// updates), then ``controllerDidChangeContent(_:)``. Delete, update and move-from paths refer
/// to the state before the event; insert and move-to paths to the state after. Applying the
/// deletes (old paths) and then the inserts (new paths) to the old sections gives exactly the
/// new ones. A move never goes to the same path (that is an update). After the context is
/// reset, ``controllerDidResetContent(_:)`` is called instead of per-object deletes.
///
/// Every method has an empty default implementation.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Before the changes of one event.
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// A section was inserted or deleted.
    func controller(_ controller: FetchedResultsController, didChangeSection section: SectionInfo, atSectionIndex index: Int, for type: ResultsChangeType)
    /// An object was inserted, deleted, moved or updated. `objectID` is the object's current
    /// ID: when a save makes a temporary ID permanent, the object is reported as updated (or
    /// moved, if its place among equal sort keys changed) under its new ID.
    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?)
    /// After the changes of one event.
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// The context was reset: reload everything (the controller has fetched again).
    func controllerDidResetContent(_ controller: FetchedResultsController)
    /// A change could not be applied (a store query failed): the results lag behind the
    /// context until a later change or a refetch (see ``FetchedResultsError``).
    func controller(_ controller: FetchedResultsController, didFailWith error: FetchedResultsError)
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, didChangeSection section: SectionInfo, atSectionIndex index: Int, for type: ResultsChangeType) {}
    public func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    public func controllerDidResetContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, didFailWith error: FetchedResultsError) {}
}

/// For consumers that prefer to diff: receives the whole new state (section names and
/// object IDs) after each change event instead of per-change callbacks. A delegate that
/// adopts this protocol gets only this call, as in Core Data.
public protocol FetchedResultsSnapshotDelegate: FetchedResultsControllerDelegate {
    /// The state after a change event, with the IDs of objects updated in place.
    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: ResultsSnapshot)
}

/// Section identifiers and item identifiers of a fetched-results controller's state.
public struct ResultsSnapshot: Sendable, Equatable {
    /// Section names, in order.
    public var sections: [String]
    /// The object IDs of each section, in order.
    public var items: [[ObjectID]]
    /// Objects whose values changed without moving (to reload).
    public var reloaded: Set<ObjectID>
}
