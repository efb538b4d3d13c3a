import Dispatch

extension AggregateResultsController {
    /// Computes the groups as ``performFetch()`` does, reading the store off the context's
    /// queue (which stays free meanwhile), then installs them and starts tracking changes on
    /// the context's queue; `completion` runs there with `nil`, or the error
    /// (``QueryCancellationError/cancelled`` when `cancellation` was cancelled: the controller
    /// is then left unfetched).
    ///
    /// The context's change events that arrive while the store is read are kept and applied
    /// once the groups are in place (the delegate hears them), so none is missed: an object
    /// the read already saw as changed is placed again where it already is. A context with
    /// unsaved changes or a parent, or a store that cannot cancel queries, is fetched at once
    /// on the calling queue, as ``performFetch()`` does.
    ///
    /// ```swift
    /// controller.performFetch(cancellation: QueryCancellation()) { error in
    ///     // on the context's queue: controller.groups are live
    /// }
    /// ```
    public func performFetch(cancellation: QueryCancellation, completion: @escaping @Sendable (Error?) -> Void) {
        context.checkQueue()
        if context.runsFetchAtOnce(cancellation: cancellation, completion: completion, { try performFetch() }) { return }
        let recorder = AggregateChangeRecorder()
        let recording = context.addObjectsDidChangeObserver { recorder.changes.append($0) }
        let read = AggregateTableRead(fetch: fetch, store: context.readStore)
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Result { try cancellation.run { try read.run() } }
            self.context.perform {
                recording.cancel()
                do {
                    try cancellation.checkCancelled()
                    try self.install(try outcome.get())
                    for change in recorder.changes { self.handle(change) }
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
        }
    }
}

/// The change events a context reported while a background aggregate fetch read the store,
/// applied once its groups are in place. Touched only on the context's queue (the observer
/// and the install both run there), hence `@unchecked Sendable`.
private final class AggregateChangeRecorder: @unchecked Sendable {
    var changes: [ObjectsDidChange] = []
}

/// One read of every matching object's contribution, run off the context's queue. `@unchecked
/// Sendable`: it holds the request's compiled fetch (never changed after it was made) and the
/// store, whose reads may run on any thread (as a fetched-results controller's index fetch).
private final class AggregateTableRead: @unchecked Sendable {
    let fetch: DictionaryFetch
    let store: any PersistentStore

    init(fetch: DictionaryFetch, store: any PersistentStore) {
        self.fetch = fetch
        self.store = store
    }

    func run() throws -> AggregateGroupTable {
        try AggregateResultsController.readTable(fetch: fetch, store: store)
    }
}
