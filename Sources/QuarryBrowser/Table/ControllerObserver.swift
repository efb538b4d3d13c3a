import Quarry

/// Receives the controller's delegate calls (on the main queue) for a ``ResultsTable``.
final class ControllerObserver: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Confined to the main queue: the controller calls its delegate on its context's queue, and
    // the browser's controllers all run on the main context.
    nonisolated(unsafe) weak var table: ResultsTable?

    init(table: ResultsTable) { self.table = table }

    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?,
                    for type: ResultsChangeType, newIndexPath: RowPath?) {
        guard type != .delete else { return }
        MainActor.assumeIsolated {
            guard let table else { return }
            if table.frozenRow?.id == objectID {
                if type == .update || type == .move { table.onFrozenRowChange?() }
                return
            }
            table.pendingFlash.append(objectID)
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController) {
        MainActor.assumeIsolated { table?.controllerDidChange() }
    }

    func controllerDidResetContent(_ controller: FetchedResultsController) {
        MainActor.assumeIsolated { table?.controllerDidReset() }
    }

    func controller(_ controller: FetchedResultsController, didFailWith error: FetchedResultsError) {
        MainActor.assumeIsolated {
            table?.onError?(error)
            table?.onChange?()
        }
    }
}
