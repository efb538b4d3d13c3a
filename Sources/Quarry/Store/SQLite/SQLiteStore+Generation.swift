import GRDB

extension SQLiteStore: QueryGenerationStore {
    /// A read-only store over this file as it is now: a connection of its own holds one read
    /// transaction on the write-ahead log (a GRDB `DatabaseSnapshot`), so every read of the
    /// returned store sees this moment while other connections and processes keep saving.
    /// Released (the transaction ended) when the returned store is.
    public func pinnedGeneration() throws -> any PersistentStore {
        do {
            return try SQLiteStore(copying: self, snapshot: pool.makeSnapshot())
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
