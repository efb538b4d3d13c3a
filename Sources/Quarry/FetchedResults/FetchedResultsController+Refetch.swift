extension FetchedResultsController {
    /// Runs the fetch again and reports the difference to the delegate as row changes
    /// (inserts, deletes, moves), where ``performFetch()`` would replace the results silently.
    ///
    /// For store changes nothing describes (another program's write, pruned history): it costs
    /// a full fetch plus O(n log n) to compare, where a merge costs O(k log n). Objects whose
    /// sort keys did not change are not reported, except the `refreshed` ones (reloaded by
    /// ``ObjectContext/mergeExternalStoreChange()``), reported as updated.
    ///
    /// When the context has unsaved changes or a parent (the store's results are not the
    /// context's), it fetches and calls ``FetchedResultsControllerDelegate/controllerDidResetContent(_:)``.
    public func refetchReportingChanges() throws {
        context.checkQueue()
        try refetchDifference(refreshed: [])
    }

    /// ``refetchReportingChanges()`` for an ``ObjectsDidChange/storeChangedExternally`` event:
    /// a failure leaves the results as they were and is told to the delegate.
    func refetchReportingChanges(refreshed: [ObjectID]) {
        do {
            try refetchDifference(refreshed: refreshed)
        } catch {
            report(FetchedResultsError.refetchFailed(entity: entity.name, reason: "\(error)"))
        }
    }

    private func refetchDifference(refreshed: [ObjectID]) throws {
        guard fetched, context.parent == nil, !context.hasChanges else {
            try performFetch()
            delegate?.controllerDidResetContent(self)
            return
        }
        var query = try context.storeQuery(for: fetchRequest)
        query.limit = 0
        query.offset = 0
        storeFetchCount += 1
        let rows = try context.readStore.keyedIDs(for: query, keyPaths: fetchRequest.sortDescriptors.map(\.keyPath))
        let entries = rows.map { SortedResults.Entry(id: $0.id, keys: $0.keys) }
        let found = results.locate(entries)
        var decisions = Decisions()
        var present = Set<ObjectID>(minimumCapacity: entries.count)
        for (n, entry) in entries.enumerated() {
            present.insert(entry.id)
            if found[n]?.sameKeys != true { decisions.upserts.append(Upsert(entry: entry)) }
        }
        decisions.leaving = results.allIDs.filter { !present.contains($0) }
        let moved = Set(decisions.upserts.map(\.entry.id))
        decisions.untouched = refreshed.filter { present.contains($0) && !moved.contains($0) }
        applyAndReport(decisions)
    }
}
