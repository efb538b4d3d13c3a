import Foundation

/// The persistent-history tables of a ``PostgreSQLStore``: the rows of the SQLite store's
/// (see the SQLite store's `Z_HISTORYTRANSACTION` and `Z_HISTORYCHANGE`: one transaction row per save, one change row per updated or
/// deleted object and per run of inserted keys), with tokens from the sequence
/// `"Z_HISTORYTOKEN"` (it only grows; pruning never gives a token back).
///
/// Saves take their token after updating the `saveToken` metadata row, whose lock they hold
/// to their commit, so transactions commit in token order: a reader that saw token *n* never
/// finds a smaller one committed later.
enum PostgreSQLHistorySchema {
    static let statements = [
        #"CREATE SEQUENCE "Z_HISTORYTOKEN""#,
        #"""
        CREATE TABLE "Z_HISTORYTRANSACTION" ("Z_TOKEN" bigint PRIMARY KEY, "Z_TIMESTAMP" double precision NOT NULL, \#
        "Z_AUTHOR" text, "Z_ORIGIN" text NOT NULL, "Z_PROCESS" bigint NOT NULL)
        """#,
        #"""
        CREATE TABLE "Z_HISTORYCHANGE" ("Z_TOKEN" bigint NOT NULL, "Z_SEQ" bigint NOT NULL, "Z_ENTITY" text NOT NULL, \#
        "Z_PK" bigint NOT NULL, "Z_COUNT" bigint NOT NULL DEFAULT 1, "Z_TYPE" bigint NOT NULL, "Z_KEYS" text, \#
        "Z_TOMBSTONE" text, PRIMARY KEY ("Z_TOKEN", "Z_SEQ"))
        """#,
    ]
}

/// Appends one save's history transaction inside the save's transaction (the rows of
/// ``SaveChanges/forEachHistoryRow(model:tombstones:_:)``), then notifies the store's channel
/// with `<token>:<origin>` (delivered at commit, dropped on rollback).
///
/// A save with a few change rows sends its statements in one round trip (libpq's pipeline
/// mode): the statement before it (the save token's bump), the transaction row, the change
/// rows and the notification, the last two taking the token with `currval`. With many change
/// rows (at least ``PostgreSQLSaveRows/copyThreshold``) the rows go by binary `COPY`, between
/// the first two statements and the notification.
struct PostgreSQLHistoryWriter {
    let model: ManagedObjectModel
    let origin: UUID
    let channel: String

    /// The change rows' columns.
    private static let changeColumns = #""Z_TOKEN", "Z_SEQ", "Z_ENTITY", "Z_PK", "Z_COUNT", "Z_TYPE", "Z_KEYS", "Z_TOMBSTONE""#
    /// The token the transaction row just took, in the same session.
    private static let currentToken = #"currval('"Z_HISTORYTOKEN"')"#

    /// Records `changes` as one transaction, after running `leading` (in the same round trip
    /// when it can); returns its token.
    func record(_ changes: SaveChanges, tombstones: [ObjectID: String], author: String?, after leading: PGStatement,
                connection: PostgreSQLConnection) throws -> HistoryToken {
        var b = PGBindings()
        b.append(Date().timeIntervalSinceReferenceDate)
        b.append(author ?? HistoryAuthor.processLabel)
        b.append(origin.uuidString)
        b.append(Int64(ProcessInfo.processInfo.processIdentifier))
        let transaction = PGStatement(#"""
            INSERT INTO "Z_HISTORYTRANSACTION" ("Z_TOKEN", "Z_TIMESTAMP", "Z_AUTHOR", "Z_ORIGIN", "Z_PROCESS") \#
            VALUES (nextval('"Z_HISTORYTOKEN"'), $1, $2, $3, $4) RETURNING "Z_TOKEN"
            """#, b)
        var notify = PGBindings()
        notify.append(channel)
        notify.append(":" + origin.uuidString)
        let notification = PGStatement("SELECT pg_notify($1, \(Self.currentToken)::text || $2)", notify)

        var rows: [HistoryChangeRow] = []
        changes.forEachHistoryRow(model: model, tombstones: tombstones) { rows.append($0) }
        let token: Int64
        if rows.count >= PostgreSQLSaveRows.copyThreshold {
            token = try Self.token(of: try connection.pipeline([leading, transaction])[1], connection: connection)
            try connection.copyIn("COPY \"Z_HISTORYCHANGE\" (\(Self.changeColumns)) FROM STDIN (FORMAT binary)") { writer in
                for (i, row) in rows.enumerated() {
                    writer.beginRow(fields: 8)
                    writer.append(token)
                    Self.append(row, sequence: Int64(i + 1), to: &writer)
                }
            }
            try connection.execute(notification.sql, notification.binds)
        } else {
            var statements = [leading, transaction]
            if !rows.isEmpty {
                var binds = PGBindings(capacity: rows.count * 7)
                var values: [String] = []
                for (i, row) in rows.enumerated() {
                    Self.append(row, sequence: Int64(i + 1), to: &binds)
                    values.append("(\(Self.currentToken), " + (7 * i + 1...7 * i + 7).map { "$\($0)" }.joined(separator: ", ") + ")")
                }
                statements.append(PGStatement("INSERT INTO \"Z_HISTORYCHANGE\" (\(Self.changeColumns)) VALUES " + values.joined(separator: ", "), binds))
            }
            statements.append(notification)
            token = try Self.token(of: try connection.pipeline(statements)[1], connection: connection)
        }
        return HistoryToken(token)
    }

    /// The token the transaction row's `RETURNING` gave.
    private static func token(of result: PGResult, connection: PostgreSQLConnection) throws -> Int64 {
        guard let token = try result.first.flatMap({ try $0[0].decode(Int64?.self) }) else {
            throw StoreError.postgreSQL(store: connection.pool.url.description, sqlState: "", message: "no history token returned")
        }
        return token
    }

    /// A history row's fields after its token: sequence number, entity, key, count, type,
    /// changed keys, tombstone.
    private static func append<W: PGFieldWriter>(_ row: HistoryChangeRow, sequence: Int64, to b: inout W) {
        b.append(sequence)
        b.append(row.entity)
        b.append(row.primaryKey)
        b.append(row.count)
        b.append(row.typeCode)
        b.append(row.keys)
        b.append(row.tombstone)
    }
}
