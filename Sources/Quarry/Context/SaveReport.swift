/// What ``ObjectContext/saveAndReport()`` did: the outcome of ``ObjectContext/save()``, the
/// optimistic-locking conflicts the merge policy resolved on the way, and, for a context that
/// saves through to the store (``PersistentStack/creatorContext()``), every value it overwrote
/// that had been written elsewhere meanwhile.
public struct SaveReport: Sendable, Equatable {
    /// What the save did.
    public var outcome: SaveOutcome
    /// Values written elsewhere that the save replaced, in object and property order.
    public var overwritten: [OverwrittenValue]
    /// How many objects the store found changed (or deleted) by another writer since this
    /// context loaded them, each resolved by the context's ``ObjectContext/mergePolicy`` and
    /// written in this save. A conflict the policy fails on throws instead of being counted.
    public var resolvedConflicts: Int

    /// Creates a report.
    public init(outcome: SaveOutcome, overwritten: [OverwrittenValue] = [], resolvedConflicts: Int = 0) {
        self.outcome = outcome
        self.overwritten = overwritten
        self.resolvedConflicts = resolvedConflicts
    }
}
