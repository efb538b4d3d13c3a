import Foundation
import GRDB

/// Persistent history: the shared SQL history (``SQLHistoryStore``) over
/// ``SQLiteHistoryTables``; the newest token is SQLite's `sqlite_sequence` for
/// `Z_HISTORYTRANSACTION`, so it survives pruning every transaction.
extension SQLiteStore: SQLHistoryStore {
    func readingHistory<T>(_ body: (SQLiteHistoryTables) throws -> T) throws -> T {
        try read { db in try body(SQLiteHistoryTables(db: db)) }
    }

    /// One `IMMEDIATE` transaction on the writer.
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/locked(path:)``.
    func pruningHistory(_ body: (SQLiteHistoryTables) throws -> Int) throws -> Int {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        do {
            return try pool.writeWithoutTransaction { db in
                var deleted = 0
                try db.inTransaction(.immediate) {
                    deleted = try body(SQLiteHistoryTables(db: db))
                    // Quarry's own write: other processes' watchers must not take it for an outside one.
                    if deleted > 0 { try LogOwnershipMark.advance(db) }
                    return .commit
                }
                return deleted
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// The authors of the kept transactions whose author starts with `prefix`, oldest first,
    /// read from the transactions table alone (not their changes).
    public func historyAuthors(withPrefix prefix: String) throws -> [String] {
        guard recordsHistory else { return [] }
        do {
            return try pool.read { db in
                guard try db.tableExists(SQLiteHistorySchema.transactionTable) else { return [] }
                return try String.fetchAll(db, sql: "SELECT Z_AUTHOR FROM Z_HISTORYTRANSACTION WHERE substr(Z_AUTHOR, 1, ?) = ? ORDER BY Z_TOKEN",
                                           arguments: [prefix.unicodeScalars.count, prefix])
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
