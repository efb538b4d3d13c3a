#if PostgreSQL
import Foundation
import PostgresNIO

extension PostgreSQLStore {
    /// The newest token ever handed out to a committed save (also after pruning deleted every
    /// transaction), or `nil` when no save was recorded.
    public func currentHistoryToken() throws -> HistoryToken? {
        try read { connection in
            var b = PostgresBindings()
            b.append(MetadataKey.historyPrunedThrough)
            let rows = try connection.query(#"""
                SELECT GREATEST((SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION"), \#
                (SELECT "value"::bigint FROM "Z_METADATA" WHERE "key" = $1))
                """#, b)
            return rows.first.flatMap { PostgreSQLValues.integer($0.makeRandomAccess()[0]) }.flatMap { $0 > 0 ? HistoryToken($0) : nil }
        }
    }

    /// The transactions after `token`, oldest first, at most `limit` (all for `nil`), with every
    /// store's history semantics (``PersistentHistoryStore``): ``HistoryFetchResult/isExpired``
    /// when pruning deleted a transaction newer than `token`.
    public func history(after token: HistoryToken?, limit: Int? = nil) throws -> HistoryFetchResult {
        let after = token?.value ?? 0
        return try read { connection in
            var pb = PostgresBindings()
            pb.append(MetadataKey.historyPrunedThrough)
            let prunedThrough = try connection.query(#"SELECT "value"::bigint FROM "Z_METADATA" WHERE "key" = $1"#, pb)
                .first.flatMap { PostgreSQLValues.integer($0.makeRandomAccess()[0]) } ?? 0
            var sql = #"SELECT "Z_TOKEN", "Z_TIMESTAMP", "Z_AUTHOR", "Z_ORIGIN", "Z_PROCESS" FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" > $1 ORDER BY "Z_TOKEN""#
            if let limit { sql += " LIMIT \(max(0, limit) + 1)" }
            var b = PostgresBindings()
            b.append(after)
            var transactions: [HistoryTransaction] = try connection.query(sql, b).map { row in
                let cells = row.makeRandomAccess()
                return HistoryTransaction(
                    token: HistoryToken(PostgreSQLValues.integer(cells[0]) ?? 0),
                    timestamp: Date(timeIntervalSinceReferenceDate: (try? cells[1].decode(Double.self)) ?? 0),
                    author: try? cells[2].decode(String?.self),
                    origin: (try? cells[3].decode(String.self)).flatMap(UUID.init(uuidString:)) ?? UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
                    processID: Int32(truncatingIfNeeded: PostgreSQLValues.integer(cells[4]) ?? 0), changes: [])
            }
            let hasMore = limit.map { transactions.count > $0 } ?? false
            if hasMore { transactions.removeLast() }
            if let first = transactions.first?.token.value, let last = transactions.last?.token.value {
                try readChanges(into: &transactions, from: first, through: last, connection: connection)
            }
            return HistoryFetchResult(transactions: transactions, isExpired: prunedThrough > after, hasMore: hasMore)
        }
    }

    private func readChanges(into transactions: inout [HistoryTransaction], from first: Int64, through last: Int64,
                             connection: PostgreSQLConnection) throws {
        var position: [Int64: Int] = [:]
        for (i, t) in transactions.enumerated() { position[t.token.value] = i }
        var b = PostgresBindings()
        b.append(first)
        b.append(last)
        let rows = try connection.query(#"""
            SELECT "Z_TOKEN", "Z_ENTITY", "Z_PK", "Z_TYPE", "Z_KEYS", "Z_TOMBSTONE", "Z_COUNT" FROM "Z_HISTORYCHANGE" \#
            WHERE "Z_TOKEN" BETWEEN $1 AND $2 ORDER BY "Z_TOKEN", "Z_SEQ"
            """#, b)
        for row in rows {
            let cells = row.makeRandomAccess()
            guard let token = PostgreSQLValues.integer(cells[0]), let i = position[token],
                  let entity = (try? cells[1].decode(String.self)).flatMap(model.entity(named:)),
                  let type = PostgreSQLValues.integer(cells[3]).flatMap(HistoryChangeType.init(code:)) else { continue }
            let keys = ((try? cells[4].decode(String?.self)) ?? nil).map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) } ?? []
            let tombstone = ((try? cells[5].decode(String?.self)) ?? nil).map { HistoryTombstone.decode($0, entity: entity) } ?? [:]
            let pk = PostgreSQLValues.integer(cells[2]) ?? 0
            let count = PostgreSQLValues.integer(cells[6]) ?? 1
            for offset in 0..<max(1, count) {
                transactions[i].changes.append(HistoryChange(objectID: ObjectID(entityIndex: entity.index, primaryKey: pk + offset),
                                                             type: type, changedKeys: keys, tombstone: tombstone))
            }
        }
    }

    /// Deletes the transactions before `token` and their changes; returns how many
    /// transactions were deleted. Later fetches after an older token report
    /// ``HistoryFetchResult/isExpired``.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try pruneHistory { _ in token.value }
    }

    /// Deletes the transactions committed before `date`; returns how many were deleted.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try pruneHistory { connection in
            var b = PostgresBindings()
            b.append(date.timeIntervalSinceReferenceDate)
            return try connection.query(#"SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION" WHERE "Z_TIMESTAMP" < $1"#, b)
                .first.flatMap { PostgreSQLValues.integer($0.makeRandomAccess()[0]) }.map { $0 + 1 } ?? 0
        }
    }

    /// Deletes the transactions below the token `bound` finds, in one transaction, and
    /// advances `history.prunedThrough`.
    private func pruneHistory(_ bound: (PostgreSQLConnection) throws -> Int64) throws -> Int {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        return try pool.transaction { connection in
            let below = try bound(connection)
            var b = PostgresBindings()
            b.append(below)
            guard let newest = try connection.query(#"SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" < $1"#, b)
                .first.flatMap({ PostgreSQLValues.integer($0.makeRandomAccess()[0]) }) else { return 0 }
            try connection.execute(#"DELETE FROM "Z_HISTORYCHANGE" WHERE "Z_TOKEN" < $1"#, b)
            let deleted = try connection.execute(#"DELETE FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" < $1"#, b)
            var m = PostgresBindings()
            m.append(MetadataKey.historyPrunedThrough)
            m.append(String(newest))
            try connection.execute(#"""
                INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2) \#
                ON CONFLICT ("key") DO UPDATE SET "value" = GREATEST("Z_METADATA"."value"::bigint, excluded."value"::bigint)::text
                """#, m)
            return deleted
        }
    }
}
#endif
