#if PostgreSQL
import Foundation
import PostgresNIO

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

/// Appends one save's history transaction inside the save's transaction, then notifies the
/// store's channel with `<token>:<origin>` (delivered at commit, dropped on rollback).
struct PostgreSQLHistoryWriter {
    let model: ManagedObjectModel
    let origin: UUID
    let channel: String

    /// Records `changes` as one transaction; returns its token.
    func record(_ changes: SaveChanges, tombstones: [ObjectID: String], author: String?, connection: PostgreSQLConnection) throws -> HistoryToken {
        var b = PostgresBindings()
        b.append(Date().timeIntervalSinceReferenceDate)
        b.append(author ?? HistoryAuthor.processLabel)
        b.append(origin.uuidString)
        b.append(Int64(ProcessInfo.processInfo.processIdentifier))
        let rows = try connection.query(#"""
            INSERT INTO "Z_HISTORYTRANSACTION" ("Z_TOKEN", "Z_TIMESTAMP", "Z_AUTHOR", "Z_ORIGIN", "Z_PROCESS") \#
            VALUES (nextval('"Z_HISTORYTOKEN"'), $1, $2, $3, $4) RETURNING "Z_TOKEN"
            """#, b)
        guard let token = rows.first.flatMap({ PostgreSQLValues.integer($0.makeRandomAccess()[0]) }) else {
            throw StoreError.postgreSQL(store: connection.pool.url.description, sqlState: "", message: "no history token returned")
        }

        // (entity name, first key, count, type, keys, tombstone)
        var pending: [(String, Int64, Int64, Int64, String?, String?)] = []
        for run in changes.insertRuns {
            pending.append((model.entities[Int(run.first.entityIndex)].name, run.first.primaryKey, Int64(run.count), 1, nil, nil))
        }
        for id in changes.updated {
            pending.append((model.entities[Int(id.entityIndex)].name, id.primaryKey, 1, 2,
                            changes.changedKeys[id].map { $0.sorted().joined(separator: ",") }, nil))
        }
        for id in changes.deleted {
            pending.append((model.entities[Int(id.entityIndex)].name, id.primaryKey, 1, 3, nil, tombstones[id]))
        }
        // Multi-row inserts of 7 parameters per row, well under PostgreSQL's 65,535.
        var sequence: Int64 = 0
        var offset = 0
        while offset < pending.count {
            let chunk = pending[offset..<min(pending.count, offset + 5_000)]
            offset += chunk.count
            var binds = PostgresBindings(capacity: chunk.count * 7 + 1)
            binds.append(token)
            var values: [String] = []
            values.reserveCapacity(chunk.count)
            var n = 1
            for (entity, pk, count, type, keys, tombstone) in chunk {
                sequence += 1
                binds.append(sequence)
                binds.append(entity)
                binds.append(pk)
                binds.append(count)
                binds.append(type)
                binds.append(keys)
                binds.append(tombstone)
                values.append("($1, $\(n + 1), $\(n + 2), $\(n + 3), $\(n + 4), $\(n + 5), $\(n + 6), $\(n + 7))")
                n += 7
            }
            try connection.execute(#"""
                INSERT INTO "Z_HISTORYCHANGE" ("Z_TOKEN", "Z_SEQ", "Z_ENTITY", "Z_PK", "Z_COUNT", "Z_TYPE", "Z_KEYS", "Z_TOMBSTONE") VALUES 
                """# + values.joined(separator: ", "), binds)
        }
        var notify = PostgresBindings()
        notify.append(channel)
        notify.append("\(token):\(origin.uuidString)")
        try connection.execute("SELECT pg_notify($1, $2)", notify)
        return HistoryToken(token)
    }
}
#endif
