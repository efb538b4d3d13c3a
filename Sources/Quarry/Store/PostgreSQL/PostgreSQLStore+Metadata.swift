import Foundation

extension PostgreSQLStore {
    /// The stored metadata and whether the store records history, or `nil` when the schema
    /// holds no store.
    /// - Throws: ``ColumnDecodingError`` naming the column when a metadata row is not text
    ///   (another program altered the table), among the connection's errors.
    static func readMetadata(pool: PostgreSQLConnectionPool, path: String) throws -> (metadata: StoreMetadata, records: Bool)? {
        try pool.withConnection { connection in
            guard try hasMetadataTable(connection) else { return nil }
            return try readMetadata(connection, path: path)
        }
    }

    static func readMetadata(_ connection: PostgreSQLConnection, path: String) throws -> (metadata: StoreMetadata, records: Bool) {
        var values: [String: String] = [:]
        for row in try connection.query(#"SELECT "key", "value" FROM "Z_METADATA""#) {
            // A key is never NULL (the primary key).
            if let key = try PostgreSQLValues.text(row[0]) { values[key] = try PostgreSQLValues.text(row[1]) }
        }
        let metadata = try StoreMetadata(values: values, path: path)
        return (metadata, values[MetadataKey.recordsHistory] != "0")
    }

    /// Makes the schema, tables, sequences and metadata in one transaction, unless another
    /// process did it first (an advisory lock on the schema's name orders concurrent creators).
    static func create(pool: PostgreSQLConnectionPool, model: ManagedObjectModel, path: String,
                       recordsHistory: Bool) throws -> (metadata: StoreMetadata, records: Bool) {
        try pool.transaction { connection in
            let schema = pool.url.schema
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", bindings("quarry.create." + schema))
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(sqlIdentifier(schema))")
            if try hasMetadataTable(connection) { return try readMetadata(connection, path: path) }
            let others = try connection.query("""
                SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 LIMIT 1
                """, bindings(schema))
            guard others.isEmpty else { throw StoreError.notAQuarryStore(path: path) }
            let layout = PostgreSQLLayout(model: model)
            for sql in layout.schemaStatements(model: model) { try connection.execute(sql) }
            for sql in PostgreSQLHistorySchema.statements { try connection.execute(sql) }
            let identifier = UUID()
            var rows: [(String, String)] = [
                (MetadataKey.identifier, identifier.uuidString),
                (MetadataKey.modelVersionHash, model.versionHash),
                (MetadataKey.model, model.definition.jsonText()),
                (MetadataKey.quarryVersion, QuarryVersion.string),
                (MetadataKey.recordsHistory, recordsHistory ? "1" : "0"),
                (MetadataKey.saveToken, "0"),
            ]
            rows += model.entities.map { (MetadataKey.entityHashPrefix + $0.name, $0.versionHash) }
            for (key, value) in rows {
                var b = PGBindings()
                b.append(key)
                b.append(value)
                try connection.execute(#"INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2)"#, b)
            }
            let metadata = StoreMetadata(identifier: identifier, model: model, modelVersionHash: model.versionHash,
                                                entityVersionHashes: model.entityVersionHashes)
            return (metadata, recordsHistory)
        }
    }

    /// The store's committed state: `<store UUID> <save count>`.
    ///
    /// Every save transaction increments the `saveToken` row of `"Z_METADATA"` with its
    /// changes, so the token changes with every commit from any host (and a rolled-back save
    /// leaves it as it was).
    /// `nil` for a schema Quarry did not make (it has no token).
    /// - Throws: ``ColumnDecodingError`` naming the column when the token's row is not text.
    public func modificationToken() throws -> String? {
        guard foreign == nil else { return nil }
        let saved = try read { connection in
            try connection.query(#"SELECT "value" FROM "Z_METADATA" WHERE "key" = $1"#, Self.bindings(MetadataKey.saveToken))
                .first.flatMap { try PostgreSQLValues.text($0[0]) }
        }
        return "\(identifier.uuidString) \(saved ?? "0")"
    }

    /// Advances the save token inside a save (see ``modificationToken()``). Its row lock,
    /// held to the commit, also makes saves commit in the order of their history tokens.
    static func bumpModificationToken(_ connection: PostgreSQLConnection) throws {
        try connection.execute(modificationTokenBump.sql, modificationTokenBump.binds)
    }

    /// The statement ``bumpModificationToken(_:)`` runs (a save with history sends it in one
    /// round trip with its history statements).
    static let modificationTokenBump = PGStatement(#"""
        UPDATE "Z_METADATA" SET "value" = (COALESCE(NULLIF("value", ''), '0')::bigint + 1)::text WHERE "key" = $1
        """#, bindings(MetadataKey.saveToken))
}
