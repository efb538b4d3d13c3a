import GRDB

extension SQLiteStore {
    /// The token `consumer` last merged, from `Z_METADATA` (`history.consumer.<name>`).
    /// Returns `nil` when none is stored, and for a foreign database (it has no `Z_METADATA`).
    public func historyConsumerToken(_ consumer: String) throws -> HistoryToken? {
        guard viewed == nil else { return nil }
        return try read { db in try SQLiteHistoryTables(db: db).historyConsumerToken(consumer) }
    }

    /// Stores (or, for `nil`, removes) the token `consumer` last merged; does nothing on a
    /// foreign database (Quarry never writes one).
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, ``StoreError/locked(path:)``.
    public func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {
        guard viewed == nil else { return }
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        do {
            try pool.write { db in
                try SQLiteHistoryTables(db: db).setHistoryConsumerToken(token, consumer: consumer)
                // Quarry's own write: other processes' watchers must not take it for an outside one.
                try LogOwnershipMark.advance(db)
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
