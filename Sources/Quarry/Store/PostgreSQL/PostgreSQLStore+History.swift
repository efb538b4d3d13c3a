import Foundation

/// Persistent history: the shared SQL history (``SQLHistoryStore``) over
/// ``PostgreSQLHistoryTables``, on a pooled connection.
extension PostgreSQLStore: SQLHistoryStore {
    func readingHistory<T>(_ body: (PostgreSQLHistoryTables) throws -> T) throws -> T {
        try read { connection in try body(PostgreSQLHistoryTables(connection: connection)) }
    }

    /// One transaction.
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/postgreSQL(store:sqlState:message:)``.
    func pruningHistory(_ body: (PostgreSQLHistoryTables) throws -> Int) throws -> Int {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        return try pool.transaction { connection in try body(PostgreSQLHistoryTables(connection: connection)) }
    }
}
