import Quarry
import QuarryTUI

extension Browser {
    /// Replaces the table's query with `query`, its store query off the main queue, so the UI
    /// keeps drawing and handling keys; the status line says `label…` until it lands.
    ///
    /// A query that does not compile throws at once. Otherwise `done` runs on the main actor
    /// with `nil` once the new results show, or the error (``QueryCancellationError/cancelled``
    /// when cancelled), the old query still in place. Starting another fetch cancels this one.
    func startFetch(_ query: TableQuery, label: String, around anchor: ObjectID? = nil, done: @escaping @MainActor (Error?) -> Void) throws {
        let cancellation = testHooks.makeCancellation()
        let previous = fetches.pending
        // Recorded first: the completion can run at once (a fetch computed on this queue).
        fetches.pending = PendingFetch(label: label, cancellation: cancellation)
        do {
            try table.beginReload(query, cancellation: cancellation, around: anchor, onFullIndex: { [weak self] error in
                self?.fullIndexArrived(error)
            }) { [weak self] error in
                guard let self else { return }
                // A newer fetch replaced this one: its outcome is no longer wanted.
                guard self.fetches.pending?.cancellation === cancellation else { return }
                self.fetches.pending = nil
                done(error)
                self.runKeysWaitingForFetch(error)
                self.finishedFetch()
            }
        } catch {
            fetches.pending = previous
            throw error
        }
        previous?.cancellation.cancel()
        if fetches.pending?.cancellation === cancellation { message = nil }
        needsDisplay()
    }

    /// Runs `action` (a key that acts on the row under the cursor) now, or, while a query is
    /// about to replace the rows, once its new rows show: typed ahead after `:filter …` Enter,
    /// Enter opens a row of the filtered table, never the row the old table had there. A query
    /// that fails or is cancelled drops the waiting keys (the old rows were not what they were
    /// typed for).
    func afterPendingFetch(_ action: @escaping @MainActor () -> Void) {
        guard let pending = fetches.pending else { return action() }
        fetches.waitingForFetch.append(action)
        message = ("\(pending.label)… (the key acts on the new rows; Esc cancels both)", false)
    }

    /// The keys typed while the query ran: run on its rows, or dropped when it did not land
    /// (noted in the message its `done` left, if any: a filter prompt reopened with its error
    /// has none).
    private func runKeysWaitingForFetch(_ error: Error?) {
        let waiting = fetches.waitingForFetch
        fetches.waitingForFetch = []
        guard error == nil else {
            if !waiting.isEmpty, let shown = message {
                message = (shown.text + " (\(waiting.count == 1 ? "the key" : "\(waiting.count) keys") typed meanwhile dropped)", shown.isError)
            }
            return
        }
        for action in waiting { action() }
    }

    /// Cancels the running fetch, if any; returns whether there was one. Its completion then
    /// reports the cancellation.
    @discardableResult
    func cancelPendingFetch() -> Bool {
        guard let pending = fetches.pending else { return false }
        pending.cancellation.cancel()
        return true
    }

    /// Whether a query runs off the main queue now.
    public var isFetching: Bool { fetches.pending != nil }

    /// Waits until no query runs off the main queue (tests, and a caller that wants the
    /// results of the last key).
    public func fetchesSettled() async {
        while fetches.pending != nil {
            await fetches.fetchWaiters.wait()
        }
    }

    private func finishedFetch() {
        needsDisplay()
        fetches.fetchWaiters.resumeAll()
    }
}
