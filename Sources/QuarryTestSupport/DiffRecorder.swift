import Quarry

/// A delegate that records a fetched-results controller's changes and applies them, in the
/// documented way, to a copy of the old state: object deletes and move-froms (old paths,
/// from the bottom), section deletes, section inserts, then object inserts and move-tos (new
/// paths, from the top).
public final class DiffRecorder: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Used on the controller's context queue only.
    /// The state as rebuilt from the reported changes.
    public private(set) var sections: [String] = []
    /// The rows of each section as rebuilt from the reported changes.
    public private(set) var items: [[ObjectID]] = []
    /// How many change events were reported.
    public private(set) var events = 0
    /// How many resets were reported.
    public private(set) var resets = 0
    /// The last event's changes, as text (for failure messages).
    public private(set) var log: [String] = []
    /// Every problem seen (a move to the same path, callbacks outside will/did…).
    public private(set) var violations: [String] = []

    private var inEvent = false
    private var sectionDeletes: [Int] = []
    private var sectionInserts: [(Int, String)] = []
    private var removals: [RowPath] = []
    private var updates: [(RowPath, ObjectID)] = []
    private var additions: [(RowPath, ObjectID)] = []

    /// Starts from `snapshot` (the state after `performFetch`).
    public init(_ snapshot: ResultsSnapshot) {
        sections = snapshot.sections
        items = snapshot.items
    }

    public func controllerWillChangeContent(_ controller: FetchedResultsController) {
        if inEvent { violations.append("willChange twice") }
        inEvent = true
        sectionDeletes = []; sectionInserts = []; removals = []; additions = []; updates = []; log = []
    }

    public func controller(_ controller: FetchedResultsController, didChangeSection section: SectionInfo, atSectionIndex index: Int, for type: ResultsChangeType) {
        if !inEvent { violations.append("section change outside an event") }
        if !removals.isEmpty || !additions.isEmpty { violations.append("section change after object changes") }
        switch type {
        case .delete: sectionDeletes.append(index)
        case .insert: sectionInserts.append((index, section.name))
        default: violations.append("section \(type)")
        }
    }

    public func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?) {
        if !inEvent { violations.append("object change outside an event") }
        log.append("\(type) \(objectID) \(indexPath.map(\.description) ?? "-") -> \(newIndexPath.map(\.description) ?? "-")")
        switch type {
        case .delete: removals.append(indexPath!)
        case .insert: additions.append((newIndexPath!, objectID))
        case .move:
            if indexPath == newIndexPath { violations.append("move to the same path \(indexPath!)") }
            removals.append(indexPath!)
            additions.append((newIndexPath!, objectID))
        case .update:
            // An update carries the object's current ID (a saved object's ID becomes permanent).
            if let indexPath { updates.append((indexPath, objectID)) } else { violations.append("update without a path") }
        }
    }

    public func controllerDidChangeContent(_ controller: FetchedResultsController) {
        inEvent = false
        events += 1
        for (p, id) in updates { items[p.section][p.row] = id }
        for p in removals.sorted(by: >) { items[p.section].remove(at: p.row) }
        for s in sectionDeletes.sorted(by: >) {
            if !items[s].isEmpty { violations.append("deleted section \(sections[s]) still holds rows") }
            items.remove(at: s)
            sections.remove(at: s)
        }
        for (s, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) {
            items.insert([], at: s)
            sections.insert(name, at: s)
        }
        for (p, id) in additions.sorted(by: { $0.0 < $1.0 }) { items[p.section].insert(id, at: p.row) }
    }

    public func controllerDidResetContent(_ controller: FetchedResultsController) {
        resets += 1
        let s = controller.snapshot
        sections = s.sections
        items = s.items
    }
}
