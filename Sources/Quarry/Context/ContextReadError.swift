/// A read from the store that a context needed and could not make: loading a fault, refreshing
/// objects after a merge or an outside change, reading a to-many for validation or delete rules.
///
/// The context never turns such a failure into a silently wrong state: a fault it could not
/// load stays a fault (read as empty until a later access reads it again), objects it could
/// not refresh keep their values and become faults, validation fails naming the relationship.
/// The newest one is kept in ``ObjectContext/lastReadError`` and carried by the
/// ``ObjectsDidChange`` announced for the step that failed, so fetched-results controllers
/// report it (``FetchedResultsError/contextReadFailed(entity:reason:)``).
public struct ContextReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the context was doing (`"loading a fault"`, `"refreshing merged objects"`, …).
    public var operation: String
    /// The objects concerned (the first few when there were many).
    public var objectIDs: [ObjectID]
    /// The store's error, in words.
    public var reason: String

    /// A read error for `operation` on `objectIDs` (at most eight kept), from `error`.
    init(_ operation: String, objectIDs: [ObjectID], error: any Error) {
        self.operation = operation
        self.objectIDs = Array(objectIDs.prefix(8))
        self.reason = "\(error)"
    }

    public var description: String {
        let objects = objectIDs.count == 1 ? " (\(objectIDs[0]))" : objectIDs.isEmpty ? "" : " (\(objectIDs.count) objects)"
        return "\(operation)\(objects) failed: \(reason)"
    }
}
