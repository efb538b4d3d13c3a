import Foundation
import GRDB

extension SQLiteStore: PersistentHistoryStore {
    /// The newest token ever handed out (SQLite's `sqlite_sequence` for `Z_HISTORYTRANSACTION`,
    /// so it survives pruning every transaction), or `nil` when no save was recorded.
    public func currentHistoryToken() throws -> HistoryToken? {
        try read { db in
            guard try db.tableExists(SQLiteHistorySchema.transactionTable) else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?",
                                      arguments: [SQLiteHistorySchema.transactionTable]).flatMap { $0 > 0 ? HistoryToken($0) : nil }
        }
    }

    /// The transactions after `token`, oldest first, at most `limit` (all for `nil`).
    ///
    /// The result ``HistoryFetchResult/isExpired`` when pruning deleted a transaction newer
    /// than `token` (a `nil` token counts as 0): the caller missed changes. Changes of entities
    /// the model no longer has (removed by a migration) are left out; a tombstone value of an
    /// attribute it no longer has, or that no longer reads as its type, too.
    ///
    /// - Throws: ``StoreError/sqlite(path:code:message:)`` when reading fails.
    public func history(after token: HistoryToken?, limit: Int? = nil) throws -> HistoryFetchResult {
        try read { db in
            guard try db.tableExists(SQLiteHistorySchema.transactionTable) else { return HistoryFetchResult(transactions: []) }
            let after = token?.value ?? 0
            let prunedThrough = try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?",
                                                    arguments: [MetadataKey.historyPrunedThrough]).flatMap { Int64($0) } ?? 0
            var transactions: [HistoryTransaction] = []
            var sql = "SELECT Z_TOKEN, Z_TIMESTAMP, Z_AUTHOR, Z_ORIGIN, Z_PROCESS FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN > ? ORDER BY Z_TOKEN"
            if let limit { sql += " LIMIT \(max(0, limit) + 1)" }
            for row in try Row.fetchAll(db, sql: sql, arguments: [after]) {
                transactions.append(HistoryTransaction(
                    token: HistoryToken(row[0]), timestamp: Date(timeIntervalSinceReferenceDate: row[1]), author: row[2],
                    origin: (row[3] as String?).flatMap(UUID.init(uuidString:)) ?? UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
                    processID: Int32(truncatingIfNeeded: row[4] as Int64), changes: []))
            }
            let hasMore = limit.map { transactions.count > $0 } ?? false
            if hasMore { transactions.removeLast() }
            if let first = transactions.first?.token.value, let last = transactions.last?.token.value {
                try readChanges(into: &transactions, from: first, through: last, db: db)
            }
            return HistoryFetchResult(transactions: transactions, isExpired: prunedThrough > after, hasMore: hasMore)
        }
    }

    /// Fills in the changes of `transactions` (tokens `first` through `last`, in order).
    private func readChanges(into transactions: inout [HistoryTransaction], from first: Int64, through last: Int64, db: Database) throws {
        var position: [Int64: Int] = [:]
        for (i, t) in transactions.enumerated() { position[t.token.value] = i }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT Z_TOKEN, Z_ENTITY, Z_PK, Z_TYPE, Z_KEYS, Z_TOMBSTONE, Z_COUNT FROM Z_HISTORYCHANGE \
            WHERE Z_TOKEN BETWEEN ? AND ? ORDER BY Z_TOKEN, Z_SEQ
            """, arguments: [first, last])
        while let row = try rows.next() {
            guard let i = position[row[0]], let entity = model.entity(named: row[1]),
                  let type = HistoryChangeType(code: row[3]) else { continue }
            let keys = (row[4] as String?).map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) } ?? []
            let tombstone = (row[5] as String?).map { HistoryTombstone.decode($0, entity: entity) } ?? [:]
            let first: Int64 = row[2]
            let count: Int64 = row[6]
            for offset in 0..<max(1, count) {
                transactions[i].changes.append(HistoryChange(objectID: ObjectID(entityIndex: entity.index, primaryKey: first + offset),
                                                             type: type, changedKeys: keys, tombstone: tombstone))
            }
        }
    }

    /// Deletes the transactions before `token` and their changes; returns how many
    /// transactions were deleted. Fetches after a token older than the newest deleted one
    /// report ``HistoryFetchResult/isExpired`` from then on.
    ///
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, ``StoreError/locked(path:)``.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try pruneHistory { _ in token.value }
    }

    /// Deletes the transactions up to the newest one committed before `date` (tokens and
    /// timestamps rise together; pruning always removes the oldest tokens, so
    /// ``HistoryFetchResult/isExpired`` stays exact); returns how many were deleted.
    ///
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, ``StoreError/locked(path:)``.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try pruneHistory { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(Z_TOKEN) FROM Z_HISTORYTRANSACTION WHERE Z_TIMESTAMP < ?",
                               arguments: [date.timeIntervalSinceReferenceDate]).map { $0 + 1 } ?? 0
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

    /// Deletes the transactions below the token `bound` finds, in one write transaction, and
    /// advances `history.prunedThrough`.
    private func pruneHistory(_ bound: @escaping (Database) throws -> Int64) throws -> Int {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        do {
            return try pool.writeWithoutTransaction { db in
                var deleted = 0
                try db.inTransaction(.immediate) {
                    guard try db.tableExists(SQLiteHistorySchema.transactionTable) else { return .commit }
                    let below = try bound(db)
                    guard let newest = try Int64.fetchOne(db, sql: "SELECT MAX(Z_TOKEN) FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN < ?", arguments: [below])
                    else { return .commit }
                    try db.execute(sql: "DELETE FROM Z_HISTORYCHANGE WHERE Z_TOKEN < ?", arguments: [below])
                    try db.execute(sql: "DELETE FROM Z_HISTORYTRANSACTION WHERE Z_TOKEN < ?", arguments: [below])
                    deleted = db.changesCount
                    let previous = try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?",
                                                       arguments: [MetadataKey.historyPrunedThrough]).flatMap { Int64($0) } ?? 0
                    try db.execute(sql: "INSERT OR REPLACE INTO Z_METADATA (key, value) VALUES (?, ?)",
                                   arguments: [MetadataKey.historyPrunedThrough, String(max(previous, newest))])
                    // Quarry's own write: other processes' watchers must not take it for an outside one.
                    try LogOwnershipMark.advance(db)
                    return .commit
                }
                return deleted
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
