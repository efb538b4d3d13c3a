/// The results of one batched fetch (`fetchBatchSize > 0`): firing any of its faults loads
/// the whole batch around it in one query, like Core Data's batched result arrays.
final class FaultBatch {
    /// The fetch's object IDs, in result order.
    let ids: [ObjectID]
    /// The batch size.
    let size: Int
    /// The fetch's `relationshipKeyPathsForPrefetching`: loaded for each batch as it is
    /// faulted in (as Core Data does), not for every result at fetch time.
    let prefetching: [String]

    init(ids: [ObjectID], size: Int, prefetching: [String] = []) {
        self.ids = ids
        self.size = max(1, size)
        self.prefetching = prefetching
    }
}
