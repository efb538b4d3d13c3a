extension FetchedResultsController {
    /// The index of `query` read from the coordinator's store: the store streams (ID, sort
    /// keys) rows in order (``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``) and the
    /// index is built from them as they come, whatever the store.
    func fetchIndexFromStore(_ query: StoreQuery) throws -> SortedResults {
        try SortedResults.fetch(query, from: context.coordinator.store, sortKeys: fetchRequest.sortDescriptors)
    }
}
