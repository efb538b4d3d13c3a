import Dispatch

extension FetchedResultsController {
    /// Fetches like ``performFetch()``, with the store query off the context's queue and
    /// cancellable, so a slow query never blocks the queue (a UI keeps drawing and handling keys).
    ///
    /// Two phases:
    /// 1. *Query*, on a background queue: the store query producing the sorted index (IDs and
    ///    sort keys), run under `cancellation`, which stops it within a few thousand SQLite steps.
    /// 2. *Install*, on the context's queue: the index becomes the results, the changes the
    ///    context saw while the query ran are applied to it (so no merge in between is lost), and
    ///    change tracking starts.
    ///
    /// Call on the context's queue. `completion` runs there once, with `nil` after the install,
    /// ``QueryCancellationError/cancelled`` when cancelled before the install (nothing changes
    /// then), or the query's error. When the results must be computed from the context's own
    /// objects (it has a parent or unsaved changes), from a cache, or from a store other than
    /// SQLite, the fetch runs at once on the calling queue, as ``performFetch()`` does.
    public func performFetch(cancellation: QueryCancellation, completion: @escaping @Sendable (Error?) -> Void) {
        context.checkQueue()
        guard context.parent == nil, !context.hasChanges, cacheName == nil, let sqlite = context.coordinator.store as? SQLiteStore else {
            do {
                try cancellation.checkCancelled()
                try performFetch()
                completion(nil)
            } catch {
                completion(error)
            }
            return
        }
        let query: StoreQuery
        do {
            var built = try context.storeQuery(for: fetchRequest)
            built.limit = 0
            built.offset = 0
            query = built
        } catch {
            completion(error)
            return
        }
        let sortKeys = fetchRequest.sortDescriptors
        let recorder = ChangeRecorder()
        let recording = context.addObjectsDidChangeObserver { recorder.changes.append($0) }
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Result { () throws -> FetchedIndex in
                try cancellation.run {
                    FetchedIndex(results: try SortedResults.fetch(query, from: sqlite, sortKeys: sortKeys))
                }
            }
            self.context.perform {
                recording.cancel()
                do {
                    try cancellation.checkCancelled()
                    let index = try outcome.get()
                    self.storeFetchCount += 1
                    self.results = index.results
                    self.rebuildSections()
                    self.startTracking()
                    for change in recorder.changes { self.handle(change) }
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
        }
    }
}

/// The sorted index built by a background fetch, handed once from the querying queue to the
/// context's queue and never touched by the querying queue again (hence unchecked).
private struct FetchedIndex: @unchecked Sendable {
    var results: SortedResults
}

/// The changes a context reported while a background fetch ran, replayed onto its results.
/// Touched only on the context's queue (the observer and the install both run there).
private final class ChangeRecorder: @unchecked Sendable {
    var changes: [ObjectsDidChange] = []
}
