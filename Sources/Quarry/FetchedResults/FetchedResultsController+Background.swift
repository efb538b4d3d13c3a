import Foundation

extension FetchedResultsController {
    /// Fetches like ``performFetch()``, with the store query off the context's queue and
    /// cancellable, so a slow query never blocks the queue (a UI keeps drawing and handling keys).
    ///
    /// Up to three phases:
    /// 0. *Preview* (when `previewCount` > 0), on the calling queue: the first `previewCount`
    ///    results only, read with a `LIMIT` (the sort index answers it without reading the
    ///    rest), become the results at once, with ``isComplete`` `false`: a screen shows while
    ///    the full index is built. They are not updated live until the index is installed.
    /// 1. *Index*, on a background queue: the controller's cache file when it is still valid
    ///    (see ``cacheName``), else the store query producing the sorted index (IDs and sort
    ///    keys), run under `cancellation`, which stops it within a few thousand SQLite steps
    ///    (on PostgreSQL: once the server acts on `pg_cancel_backend`);
    ///    the cache file is rewritten after a query.
    /// 2. *Install*, on the context's queue: the index becomes the results, the changes the
    ///    context saw since the fetch began are applied to it (so no merge in between is lost),
    ///    ``isComplete`` becomes `true` and change tracking starts.
    ///
    /// Call on the context's queue. `completion` runs there once, with `nil` after the install,
    /// ``QueryCancellationError/cancelled`` when cancelled before the install (the results are
    /// then those of the preview, or unchanged without one), or the query's error. When the
    /// results must be computed from the context's own objects (it has a parent or unsaved
    /// changes), or the store's queries cannot be cancelled (``PersistentStore/cancelsQueries``:
    /// not SQLite or PostgreSQL; those stores answer from memory), the fetch runs at once on the
    /// calling queue, as ``performFetch()`` does, without a preview. A failed preview query is
    /// passed to `completion` (nothing changed then).
    public func performFetch(cancellation: QueryCancellation, previewCount: Int = 0,
                             completion: @escaping @Sendable (Error?) -> Void) {
        context.checkQueue()
        guard context.parent == nil, !context.hasChanges, context.coordinator.store.cancelsQueries else {
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
        let recorder = ChangeRecorder()
        let recording = context.addObjectsDidChangeObserver { recorder.changes.append($0) }
        if previewCount > 0 {
            do {
                try installPreview(of: query, count: previewCount)
            } catch {
                recording.cancel()
                completion(error)
                return
            }
        }
        let source = IndexSource(controller: self, query: query)
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Result { try cancellation.run { try source.index() } }
            self.context.perform {
                recording.cancel()
                do {
                    try cancellation.checkCancelled()
                    let index = try outcome.get()
                    if index.fromCache { self.cacheHitCount += 1 } else { self.storeFetchCount += 1 }
                    self.results = index.results
                    self.isComplete = true
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

    /// Makes the first `count` results of `query` the results, marked incomplete.
    private func installPreview(of query: StoreQuery, count: Int) throws {
        var first = query
        first.limit = count
        results = try SortedResults.fetch(first, from: context.coordinator.store, sortKeys: fetchRequest.sortDescriptors)
        isComplete = results.count < count
        rebuildSections()
    }
}

/// Where a background fetch gets its index: the controller's cache file when still valid, else
/// the store. Made on the context's queue from the controller's immutable configuration, then
/// used on the background queue only (hence unchecked: it holds the store, which is thread-safe,
/// and value types).
private struct IndexSource: @unchecked Sendable {
    let store: PersistentStore
    let query: StoreQuery
    let sortKeys: [SortKey]
    let sectioned: Bool
    /// The cache file and the fingerprint of the request it is for (`nil` without a cache name).
    let cache: (url: URL, fingerprint: String)?

    init(controller: FetchedResultsController, query: StoreQuery) {
        store = controller.context.coordinator.store
        self.query = query
        sortKeys = controller.fetchRequest.sortDescriptors
        sectioned = controller.sectionNameKeyPath != nil
        cache = controller.cacheFileURL.map {
            ($0, ResultsCache.fingerprint(request: controller.fetchRequest, sectionNameKeyPath: controller.sectionNameKeyPath, model: controller.context.model))
        }
    }

    /// The index, from the cache or the store (writing the cache after a store query).
    func index() throws -> FetchedIndex {
        // The token is read before the query: a save landing in between makes the file look
        // older than its contents (a later miss), never newer.
        let token = cache == nil ? nil : ((try? store.modificationToken()) ?? nil)
        if let cache, let token, let hit = ResultsCache.read(from: cache.url, fingerprint: cache.fingerprint, token: token, sortKeys: sortKeys) {
            return FetchedIndex(results: hit.results, fromCache: true)
        }
        let results = try SortedResults.fetch(query, from: store, sortKeys: sortKeys)
        if let cache, let token {
            let sections = FetchedResultsController.sections(of: results, sectioned: sectioned)
            try? ResultsCache.write(.init(fingerprint: cache.fingerprint, token: token, results: results,
                                          sectionStarts: sections.starts, sectionNames: sections.names), to: cache.url)
        }
        return FetchedIndex(results: results, fromCache: false)
    }
}

/// The sorted index built by a background fetch, handed once from the querying queue to the
/// context's queue and never touched by the querying queue again (hence unchecked).
private struct FetchedIndex: @unchecked Sendable {
    var results: SortedResults
    var fromCache: Bool
}

/// The changes a context reported while a background fetch ran, replayed onto its results.
/// Touched only on the context's queue (the observer and the install both run there).
private final class ChangeRecorder: @unchecked Sendable {
    var changes: [ObjectsDidChange] = []
}
