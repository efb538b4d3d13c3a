/// Why a fetched-results controller could not keep its results live (told to the delegate
/// through ``FetchedResultsControllerDelegate/controller(_:didFailWith:)`` and kept in
/// ``FetchedResultsController/lastError``). The results stay as they were before the failed
/// step; a later change event or ``FetchedResultsController/refetchReportingChanges()``
/// brings them up to date.
public enum FetchedResultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store query deciding `objects` merged objects of `entity` (a request that reads
    /// through a relationship) failed: they stay where they were; the rest of the change was
    /// applied.
    case mergeQueryFailed(entity: String, objects: Int, reason: String)
    /// Fetching `entity`'s results again (after a reset, or a change made outside Quarry)
    /// failed: the results are those of before.
    case refetchFailed(entity: String, reason: String)

    public var description: String {
        switch self {
        case .mergeQueryFailed(let entity, let objects, let reason):
            return "live update of \(entity) failed: \(objects) changed object\(objects == 1 ? "" : "s") could not be placed: \(reason)"
        case .refetchFailed(let entity, let reason):
            return "refetching \(entity) failed: \(reason)"
        }
    }
}
