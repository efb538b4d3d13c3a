/// What a ``DemoImporter``'s saves stored, summed.
public struct DemoImporterTotals: Sendable, Equatable, CustomStringConvertible {
    /// Saves that reached the store.
    public var saves = 0
    /// Tickers inserted.
    public var inserted = 0
    /// Tickers updated.
    public var updated = 0
    /// Optimistic-locking conflicts resolved by the merge policy (``DemoSave/resolvedConflicts``).
    public var resolvedConflicts = 0
    /// Saves refused whole because another importer had stored their symbols first, then retried.
    public var refusedForCollisions = 0

    /// No saves yet.
    public init() {}

    /// Adds one save.
    mutating func add(_ save: DemoSave) {
        saves += 1
        inserted += save.inserted
        updated += save.updated
        resolvedConflicts += save.resolvedConflicts
    }

    /// "imported 40 saves: 2000 inserted, 17960 updated, 35 conflicts resolved by policy,
    /// 2 saves retried after symbol collisions", what `quarry demo --import-only` prints last.
    public var description: String {
        "imported \(saves) saves: \(inserted) inserted, \(updated) updated, \(resolvedConflicts) conflicts resolved by policy, "
            + "\(refusedForCollisions) saves retried after symbol collisions"
    }
}
