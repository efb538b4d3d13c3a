import Foundation

/// How a fetch the store answers gets a controller's sorted index: from the controller's cache
/// file when it is still valid (see ``FetchedResultsController/cacheName``), else from the
/// store, rewriting the cache file. The one cache read/write path of both
/// ``FetchedResultsController/performFetch()`` (run on the context's queue) and
/// ``FetchedResultsController/performFetch(cancellation:previewCount:completion:)`` (run on a
/// background queue).
///
/// The store streams (ID, sort keys) rows in order
/// (``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``) and the index is built from them as
/// they come, whatever the store. Cache-file errors never fail the fetch.
///
/// Made on the context's queue from the controller's immutable configuration, then run on one
/// queue, the context's or a background one (hence unchecked: it holds the store, which is
/// thread-safe, and value types).
struct IndexFetch: @unchecked Sendable {
    let store: PersistentStore
    let query: StoreQuery
    let sortKeys: [SortKey]
    let sectioned: Bool
    /// The cache file and the fingerprint of the request it is for (`nil` without a cache name).
    let cache: (url: URL, fingerprint: String)?

    /// The fetch of `query` (the controller's request, unlimited) for `controller`. Call on the
    /// context's queue, only when the store's results are exactly the context's (no parent, no
    /// unsaved changes): only then does the cache apply.
    init(controller: FetchedResultsController, query: StoreQuery) {
        store = controller.context.readStore
        self.query = query
        sortKeys = controller.fetchRequest.sortDescriptors
        sectioned = controller.sectionNameKeyPath != nil
        cache = controller.cacheFileURL.map {
            ($0, ResultsCache.fingerprint(request: controller.fetchRequest, sectionNameKeyPath: controller.sectionNameKeyPath, model: controller.context.model))
        }
    }

    /// The index, from the cache or the store (writing the cache after a store query).
    /// - Throws: the store query's error.
    func run() throws -> FetchedIndex {
        // The token is read before the query: a save landing in between makes the file look
        // older than its contents (a later miss), never newer.
        // The cache is only a shortcut: a token that cannot be read means no cache this time.
        let token = cache == nil ? nil : ((try? store.modificationToken()) ?? nil)
        if let cache, let token, let hit = ResultsCache.read(from: cache.url, fingerprint: cache.fingerprint, token: token, sortKeys: sortKeys) {
            return FetchedIndex(results: hit.results, sectionStarts: hit.sectionStarts, sectionNames: hit.sectionNames, fromCache: true)
        }
        let results = try SortedResults.fetch(query, from: store, sortKeys: sortKeys)
        let sections = FetchedResultsController.sections(of: results, sectioned: sectioned)
        if let cache, let token {
            // Best-effort: a cache that cannot be written only means the next open queries the store.
            try? ResultsCache.write(.init(fingerprint: cache.fingerprint, token: token, results: results,
                                          sectionStarts: sections.starts, sectionNames: sections.names), to: cache.url)
        }
        return FetchedIndex(results: results, sectionStarts: sections.starts, sectionNames: sections.names, fromCache: false)
    }
}

/// A sorted index and its sections, as an ``IndexFetch`` got it. Built on the fetching queue and
/// handed once to the context's queue, never touched by the fetching queue again (hence
/// unchecked).
struct FetchedIndex: @unchecked Sendable {
    var results: SortedResults
    /// Where each section starts in `results`, and its name.
    var sectionStarts: [Int]
    var sectionNames: [String]
    /// Whether it was read from the cache file (else the store was queried).
    var fromCache: Bool
}

extension FetchedResultsController {
    /// Makes `index` the results and its sections the sections, counting where it came from.
    func install(_ index: FetchedIndex) {
        if index.fromCache { cacheHitCount += 1 } else { storeFetchCount += 1 }
        results = index.results
        sectionStarts = index.sectionStarts
        sectionNames = index.sectionNames
    }
}
