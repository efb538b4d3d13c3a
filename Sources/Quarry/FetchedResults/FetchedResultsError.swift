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
    /// Loading the batch of `rows` rows of `entity` starting at row `start` (an
    /// ``FetchedResultsController/object(at:)`` whose object was a fault) failed: the objects
    /// stay faults, read again when next asked for.
    case batchFaultFailed(entity: String, start: Int, rows: Int, reason: String)
    /// Prefetching `keyPath` for a batch of `entity` failed: its destinations are read one by
    /// one as they are used.
    case prefetchFailed(entity: String, keyPath: String, reason: String)
    /// The context could not read what a change needed (see ``ContextReadError``): the objects
    /// concerned became faults, read again when next used.
    case contextReadFailed(entity: String, reason: String)

    public var description: String {
        switch self {
        case .mergeQueryFailed(let entity, let objects, let reason):
            return "live update of \(entity) failed: \(objects) changed object\(objects == 1 ? "" : "s") could not be placed: \(reason)"
        case .refetchFailed(let entity, let reason):
            return "refetching \(entity) failed: \(reason)"
        case .batchFaultFailed(let entity, let start, let rows, let reason):
            return "loading \(entity) rows \(start + 1)–\(start + rows) failed: \(reason)"
        case .prefetchFailed(let entity, let keyPath, let reason):
            return "prefetching \(entity).\(keyPath) failed: \(reason)"
        case .contextReadFailed(let entity, let reason):
            return "\(entity): \(reason)"
        }
    }
}
