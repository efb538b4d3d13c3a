import Foundation

extension PostgreSQLStore {
    /// What a schema holds, as far as opening a store there goes.
    public enum SchemaKind: Sendable, Equatable {
        /// A Quarry store.
        case quarryStore
        /// Tables or views and no Quarry store: read as it is (see ``ForeignPostgreSQLSchema``).
        case foreign
        /// Nothing (or no schema at all): where a store can be made.
        case empty
    }

    /// What the schema `url` names holds, read from the catalog without writing anything.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` when the server cannot be asked.
    public static func schemaKind(url: PostgreSQLStoreURL) throws -> SchemaKind {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1, readOnlySessions: true)
        defer { pool.close() }
        return try pool.withConnection { connection in
            if try hasMetadataTable(connection) { return .quarryStore }
            let relations = try connection.query("""
                SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') LIMIT 1
                """, bindings(url.schema))
            return relations.isEmpty ? .empty : .foreign
        }
    }

    /// The schema the pool's URL names, read as a schema Quarry did not make, or `nil` when it
    /// holds no table or view (a store to be made there).
    /// - Throws: the connection's errors; ``StoreError/cannotOpen(path:reason:)`` when the
    ///   relations' columns make no model.
    static func readForeignSchema(pool: PostgreSQLConnectionPool, foldCollation: String) throws -> ForeignPostgreSQLSchema? {
        let url = pool.url
        let introspection = try pool.withConnection {
            try PostgreSQLIntrospection.read($0, schema: url.schema, shown: url.description)
        }
        guard !introspection.objects.isEmpty else { return nil }
        do {
            return try ForeignPostgreSQLSchema(reading: introspection, schema: url.schema, foldCollation: foldCollation)
        } catch {
            throw StoreError.cannotOpen(path: url.description, reason: "its tables make no model: \(error)")
        }
    }

    /// The UUID of a schema Quarry did not make: the same for every store opened on it (both
    /// of a stack's stores, every process), from the server, database and schema.
    static func foreignIdentifier(_ url: PostgreSQLStoreURL) -> UUID {
        // FNV-1a, twice with different offsets: 128 bits that only need to be stable.
        func fnv(_ text: String, _ offset: UInt64) -> UInt64 {
            text.utf8.reduce(offset) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        let name = "\(url.host):\(url.port)/\(url.database)/\(url.schema)"
        let a = fnv(name, 0xcbf2_9ce4_8422_2325), b = fnv(name, 0x8422_2325_cbf2_9ce4)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80   // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// What every read statement starts with: the ``ForeignPostgreSQLSchema/prelude`` of a
    /// schema Quarry did not make, else nothing.
    var prelude: String { foreign?.prelude ?? "" }
}
