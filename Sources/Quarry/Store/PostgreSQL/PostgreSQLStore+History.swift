import Foundation

/// Persistent history: the shared SQL history (``SQLHistoryStore``) over
/// ``PostgreSQLHistoryTables``, on a pooled connection.
extension PostgreSQLStore: SQLHistoryStore {
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` for a schema Quarry did not make.
    func readingHistory<T>(_ body: (PostgreSQLHistoryTables) throws -> T) throws -> T {
        guard foreign == nil else {
            throw StoreError.cannotOpen(path: storeURL.description, reason: "a schema Quarry did not make has no persistent history")
        }
        return try read { connection in try body(PostgreSQLHistoryTables(connection: connection)) }
    }

    /// One transaction.
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/postgreSQL(store:sqlState:message:)``.
    func pruningHistory(_ body: (PostgreSQLHistoryTables) throws -> Int) throws -> Int {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        return try pool.transaction { connection in try body(PostgreSQLHistoryTables(connection: connection)) }
    }
}
