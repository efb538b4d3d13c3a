import Foundation
import GRDB

/// An ``SQLiteStore``'s history tables and metadata on one connection, for the shared history
/// code (``SQLHistoryAccess``): SQLite's text of each statement, in the caller's transaction.
struct SQLiteHistoryTables: SQLHistoryAccess {
    let db: Database

    func hasHistoryTables() throws -> Bool { try db.tableExists(SQLiteHistorySchema.transactionTable) }

    /// SQLite's `sqlite_sequence` for `Z_HISTORYTRANSACTION` (kept through pruning every row).
    func newestHandedOutToken() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [SQLiteHistorySchema.transactionTable])
    }

    func forEachTransaction(after: Int64, limit: Int?, _ body: (HistoryTransactionRow) throws -> Void) throws {
        var sql = "SELECT Z_TOKEN, Z_TIMESTAMP, Z_AUTHOR, Z_ORIGIN, Z_PROCESS FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN > ? ORDER BY Z_TOKEN"
        if let limit { sql += " LIMIT \(limit)" }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [after])
        while let row = try rows.next() {
            try body(HistoryTransactionRow(token: row[0], timestamp: row[1], author: row[2], origin: row[3], processID: row[4]))
        }
    }

    func forEachChange(from first: Int64, through last: Int64, _ body: (Int64, HistoryChangeRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT Z_TOKEN, Z_ENTITY, Z_PK, Z_TYPE, Z_KEYS, Z_TOMBSTONE, Z_COUNT FROM Z_HISTORYCHANGE \
            WHERE Z_TOKEN BETWEEN ? AND ? ORDER BY Z_TOKEN, Z_SEQ
            """), arguments: [first, last])
        while let row = try rows.next() {
            try body(row[0], HistoryChangeRow(entity: row[1], primaryKey: row[2], count: row[6], typeCode: row[3], keys: row[4], tombstone: row[5]))
        }
    }

    func newestToken(below bound: Int64) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(Z_TOKEN) FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN < ?", arguments: [bound])
    }

    func newestToken(committedBefore date: Date) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(Z_TOKEN) FROM Z_HISTORYTRANSACTION WHERE Z_TIMESTAMP < ?",
                           arguments: [date.timeIntervalSinceReferenceDate])
    }

    func deleteTransactions(below bound: Int64) throws -> Int {
        try db.execute(sql: "DELETE FROM Z_HISTORYCHANGE WHERE Z_TOKEN < ?", arguments: [bound])
        try db.execute(sql: "DELETE FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN < ?", arguments: [bound])
        return db.changesCount
    }

    /// Inside the caller's `IMMEDIATE` transaction, so reading then writing is safe.
    func advancePrunedThrough(to token: Int64) throws {
        let previous = try metadataValue(MetadataKey.historyPrunedThrough).flatMap { Int64($0) } ?? 0
        try setMetadataValue(String(max(previous, token)), key: MetadataKey.historyPrunedThrough)
    }

    func metadataValue(_ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM Z_METADATA WHERE key = ?"), arguments: [key])
    }

    func setMetadataValue(_ value: String?, key: String) throws {
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO Z_METADATA (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM Z_METADATA WHERE key = ?", arguments: [key])
        }
    }
}
