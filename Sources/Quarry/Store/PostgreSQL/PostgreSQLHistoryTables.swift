import Foundation

/// A ``PostgreSQLStore``'s history tables and metadata on one connection, for the shared
/// history code (``SQLHistoryAccess``): PostgreSQL's text of each statement, in the caller's
/// transaction (or autocommit).
struct PostgreSQLHistoryTables: SQLHistoryAccess {
    let connection: PostgreSQLConnection

    /// Every PostgreSQL store is made with its history tables.
    func hasHistoryTables() throws -> Bool { true }

    /// The largest token kept, or pruned through (the sequence itself is not transactional).
    func newestHandedOutToken() throws -> Int64? {
        try integer(#"""
            SELECT GREATEST((SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION"), \#
            (SELECT "value"::bigint FROM "Z_METADATA" WHERE "key" = $1))
            """#, PostgreSQLStore.bindings(MetadataKey.historyPrunedThrough))
    }

    func forEachTransaction(after: Int64, limit: Int?, _ body: (HistoryTransactionRow) throws -> Void) throws {
        var sql = #"SELECT "Z_TOKEN", "Z_TIMESTAMP", "Z_AUTHOR", "Z_ORIGIN", "Z_PROCESS" FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" > $1 ORDER BY "Z_TOKEN""#
        if let limit { sql += " LIMIT \(limit)" }
        var b = PGBindings()
        b.append(after)
        for row in try connection.query(sql, b) {
            try body(HistoryTransactionRow(token: try row[0].decode(Int64.self), timestamp: try row[1].decode(Double.self),
                                           author: try row[2].decode(String?.self), origin: try row[3].decode(String?.self),
                                           processID: try row[4].decode(Int64.self)))
        }
    }

    func forEachChange(from first: Int64, through last: Int64, _ body: (Int64, HistoryChangeRow) throws -> Void) throws {
        var b = PGBindings()
        b.append(first)
        b.append(last)
        let rows = try connection.query(#"""
            SELECT "Z_TOKEN", "Z_ENTITY", "Z_PK", "Z_TYPE", "Z_KEYS", "Z_TOMBSTONE", "Z_COUNT" FROM "Z_HISTORYCHANGE" \#
            WHERE "Z_TOKEN" BETWEEN $1 AND $2 ORDER BY "Z_TOKEN", "Z_SEQ"
            """#, b)
        for row in rows {
            try body(try row[0].decode(Int64.self), HistoryChangeRow(
                entity: try row[1].decode(String.self), primaryKey: try row[2].decode(Int64.self), count: try row[6].decode(Int64.self),
                typeCode: try row[3].decode(Int64.self), keys: try row[4].decode(String?.self), tombstone: try row[5].decode(String?.self)))
        }
    }

    func newestToken(below bound: Int64) throws -> Int64? {
        var b = PGBindings()
        b.append(bound)
        return try integer(#"SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" < $1"#, b)
    }

    func newestToken(committedBefore date: Date) throws -> Int64? {
        var b = PGBindings()
        b.append(date.timeIntervalSinceReferenceDate)
        return try integer(#"SELECT MAX("Z_TOKEN") FROM "Z_HISTORYTRANSACTION" WHERE "Z_TIMESTAMP" < $1"#, b)
    }

    func deleteTransactions(below bound: Int64) throws -> Int {
        var b = PGBindings()
        b.append(bound)
        try connection.execute(#"DELETE FROM "Z_HISTORYCHANGE" WHERE "Z_TOKEN" < $1"#, b)
        return try connection.execute(#"DELETE FROM "Z_HISTORYTRANSACTION" WHERE "Z_TOKEN" < $1"#, b)
    }

    /// One upsert keeping the larger value, so concurrent prunes leave the largest.
    func advancePrunedThrough(to token: Int64) throws {
        var b = PostgreSQLStore.bindings(MetadataKey.historyPrunedThrough)
        b.append(String(token))
        try connection.execute(#"""
            INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2) \#
            ON CONFLICT ("key") DO UPDATE SET "value" = GREATEST("Z_METADATA"."value"::bigint, excluded."value"::bigint)::text
            """#, b)
    }

    func metadataValue(_ key: String) throws -> String? {
        try connection.query(#"SELECT "value" FROM "Z_METADATA" WHERE "key" = $1"#, PostgreSQLStore.bindings(key))
            .first.flatMap { try $0[0].decode(String?.self) }
    }

    /// One statement (an upsert), so concurrent writers leave one of their values.
    func setMetadataValue(_ value: String?, key: String) throws {
        guard let value else {
            try connection.execute(#"DELETE FROM "Z_METADATA" WHERE "key" = $1"#, PostgreSQLStore.bindings(key))
            return
        }
        var b = PostgreSQLStore.bindings(key)
        b.append(value)
        try connection.execute(#"""
            INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2) \#
            ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"
            """#, b)
    }

    /// The integer in the first column of the first row `sql` returns, `nil` for none or NULL.
    private func integer(_ sql: String, _ binds: PGBindings) throws -> Int64? {
        try connection.query(sql, binds).first.flatMap { try $0[0].decode(Int64?.self) }
    }
}
