/// A save refused because objects clash on a uniqueness constraint: under the ``MergePolicy/error``
/// policy, or when no policy can merge the clash (see ``reason``). Carries every clash of the
/// save, each with its key and both sides (Core Data's `conflictList` of `NSConstraintConflict`).
///
/// Nothing was written; the context's changes stay pending.
public struct ConstraintConflictError: Error, Sendable, CustomStringConvertible {
    /// Every clash of the refused save.
    public var conflicts: [ConstraintConflict]
    /// Why a merging policy could not resolve the clashes (`nil` under ``MergePolicy/error``).
    public var reason: String?

    /// Creates the error.
    public init(conflicts: [ConstraintConflict], reason: String? = nil) {
        self.conflicts = conflicts
        self.reason = reason
    }

    public var description: String {
        "save refused: \(conflicts.count) uniqueness constraint conflict(s)" + (reason.map { " (\($0))" } ?? "") + ": "
            + conflicts.map(\.description).joined(separator: "; ")
    }
}
