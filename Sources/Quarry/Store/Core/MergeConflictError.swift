/// A save refused under the error merge policy: the rows changed in the store since they were
/// loaded. Carries every conflict with both versions (Core Data's `conflictList`).
public struct MergeConflictError: Error, Sendable, CustomStringConvertible {
    /// Every conflict of the refused save.
    public var conflicts: [MergeConflict]

    /// Creates the error.
    public init(conflicts: [MergeConflict]) { self.conflicts = conflicts }

    public var description: String {
        "save refused: \(conflicts.count) merge conflict(s): " + conflicts.map(\.description).joined(separator: "; ")
    }
}
