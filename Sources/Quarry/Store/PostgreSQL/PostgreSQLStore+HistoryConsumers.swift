import Foundation

extension PostgreSQLStore {
    /// The token `consumer` last merged, from `"Z_METADATA"` (`history.consumer.<name>`, the
    /// SQLite store's key), `nil` when none is stored (always for a schema Quarry did not make).
    public func historyConsumerToken(_ consumer: String) throws -> HistoryToken? {
        guard foreign == nil else { return nil }
        return try read { connection in try PostgreSQLHistoryTables(connection: connection).historyConsumerToken(consumer) }
    }

    /// Stores (or, for `nil`, removes) the token `consumer` last merged, in one statement (an
    /// upsert), so concurrent stacks setting it leave one of their values.
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store,
    ///   ``StoreError/postgreSQL(store:sqlState:message:)`` from the server.
    public func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: storeURL.description) }
        try read { connection in try PostgreSQLHistoryTables(connection: connection).setHistoryConsumerToken(token, consumer: consumer) }
    }
}
