#if PostgreSQL
import Foundation
import PostgresNIO

extension PostgreSQLStore {
    /// The token `consumer` last merged, from `"Z_METADATA"` (`history.consumer.<name>`, the
    /// SQLite store's key), `nil` when none is stored.
    public func historyConsumerToken(_ consumer: String) throws -> HistoryToken? {
        let key = MetadataKey.historyConsumerPrefix + consumer
        let value = try read { connection in
            try connection.query(#"SELECT "value" FROM "Z_METADATA" WHERE "key" = $1"#, Self.bindings(key))
                .first.flatMap { try? $0.makeRandomAccess()[0].decode(String.self) }
        }
        return value.flatMap { Int64($0) }.map(HistoryToken.init)
    }

    /// Stores (or, for `nil`, removes) the token `consumer` last merged, in one statement (an
    /// upsert), so concurrent stacks setting it leave one of their values.
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store,
    ///   ``StoreError/postgreSQL(store:sqlState:message:)`` from the server.
    public func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: storeURL.description) }
        let key = MetadataKey.historyConsumerPrefix + consumer
        try read { connection in
            if let token {
                var b = Self.bindings(key)
                b.append(String(token.value))
                try connection.execute(#"""
                    INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2) \#
                    ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"
                    """#, b)
            } else {
                try connection.execute(#"DELETE FROM "Z_METADATA" WHERE "key" = $1"#, Self.bindings(key))
            }
        }
    }
}
#endif
