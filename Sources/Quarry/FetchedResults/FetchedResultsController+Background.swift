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
    ///    (on PostgreSQL: once the server acts on the cancel request);
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
        performFetch(cancellation: cancellation, preview: previewCount > 0 ? .first(previewCount) : nil, completion: completion)
    }

    /// Fetches like ``performFetch(cancellation:previewCount:completion:)``, the preview being
    /// the `rows` results before `anchor` and the `rows` from it on, where the results would
    /// place them, with ``previewOffset`` (how many results come before the preview's first)
    /// and, for a request without a predicate, ``previewTotal``: a table opened on one object
    /// of a million shows it, in place, before the full index is read.
    ///
    /// Only an order with one sort key, an attribute of the entity's own that a uniqueness
    /// constraint makes unique (strings compared by bytes), and an anchor among the results
    /// with a value for it, has such a preview (its parts are index ranges); any other fetch
    /// runs without a preview.
    public func performFetch(cancellation: QueryCancellation, previewAround anchor: ObjectID, rows: Int,
                             completion: @escaping @Sendable (Error?) -> Void) {
        performFetch(cancellation: cancellation, preview: .around(anchor, rows: max(1, rows)), completion: completion)
    }

    /// What a background fetch shows before its index: the first results, or those around an object.
    private enum Preview {
        case first(Int)
        case around(ObjectID, rows: Int)
    }

    private func performFetch(cancellation: QueryCancellation, preview: Preview?, completion: @escaping @Sendable (Error?) -> Void) {
        context.checkQueue()
        if context.runsFetchAtOnce(cancellation: cancellation, completion: completion, { try performFetch() }) { return }
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
        var previewed = false
        do {
            switch preview {
            case .first(let count)?:
                try installPreview(of: query, count: count)
                previewed = true
            case .around(let anchor, let rows)?:
                previewed = try installPreview(of: query, around: anchor, rows: rows)
            case nil:
                break
            }
        } catch {
            recording.cancel()
            completion(error)
            return
        }
        let fetch = IndexFetch(controller: self, query: query)
        let runIndex: @Sendable () -> Void = {
            let outcome = Result { try cancellation.run { try fetch.run() } }
            self.context.perform {
                recording.cancel()
                do {
                    try cancellation.checkCancelled()
                    self.install(try outcome.get())
                    self.isComplete = true
                    self.previewOffset = 0
                    self.previewTotal = nil
                    self.startTracking()
                    for change in recorder.changes { self.handle(change) }
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
        }
        // After a preview, the index query starts once the calling queue has finished its
        // current work: a UI draws its first screen from the preview before the query
        // competes with it for the cores.
        if previewed {
            context.perform { DispatchQueue.global(qos: .userInitiated).async(execute: runIndex) }
        } else {
            DispatchQueue.global(qos: .userInitiated).async(execute: runIndex)
        }
    }

    /// Makes the first `count` results of `query` the results, marked incomplete.
    private func installPreview(of query: StoreQuery, count: Int) throws {
        var first = query
        first.limit = count
        results = try SortedResults.fetch(first, from: context.readStore, sortKeys: fetchRequest.sortDescriptors)
        isComplete = results.count < count
        rebuildSections()
    }
}

/// The changes a context reported while a background fetch ran, replayed onto its results.
/// Touched only on the context's queue (the observer and the install both run there).
private final class ChangeRecorder: @unchecked Sendable {
    var changes: [ObjectsDidChange] = []
}
