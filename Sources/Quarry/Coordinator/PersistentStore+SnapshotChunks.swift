extension PersistentStore {
    /// Reads the committed state of `ids` in queries of ``StoreCoordinator/batchReadSize``
    /// objects, handing each chunk of IDs to `body` with the snapshots read for it (objects no
    /// longer in the store are missing): how batch requests read a million rows without one
    /// query per object or one query of a million.
    func forEachSnapshotChunk(of ids: [ObjectID], _ body: (ArraySlice<ObjectID>, [ObjectID: Snapshot]) throws -> Void) throws {
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(ids.count, start + StoreCoordinator.batchReadSize)]
            try body(chunk, try snapshots(for: Array(chunk)))
            start = chunk.endIndex
        }
    }
}
