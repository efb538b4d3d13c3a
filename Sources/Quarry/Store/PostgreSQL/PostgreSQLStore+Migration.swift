import Foundation

extension PostgreSQLStore {
    /// What migrating the store at `url` to `model` would do, or `nil` when the store already
    /// has that model: the same ``MigrationPlan`` every SQL back end makes, named after the URL
    /// without its password. Writes nothing.
    ///
    /// With `countingRows`, each entity's rows are counted and the first step's refusals are
    /// checked against the data, as a migration would.
    ///
    /// ```swift
    /// if let plan = try PostgreSQLStore.migrationPlan(url: url, to: model) { print(plan) }
    /// ```
    /// - Throws: ``MigrationError`` when the migration would be refused; ``StoreError`` when
    ///   the schema holds no store or the server fails.
    public static func migrationPlan(
        url: PostgreSQLStoreURL, to model: ManagedObjectModel, versions: ModelVersionHistory? = nil, countingRows: Bool = true
    ) throws -> MigrationPlan? {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        let path = url.description
        // A read-only transaction: one snapshot for every count.
        return try pool.transaction(isolation: "REPEATABLE READ READ ONLY") { connection in
            guard try hasMetadataTable(connection) else { throw StoreError.notAQuarryStore(path: path) }
            let stored = try readMetadata(connection, path: path).metadata
            guard stored.modelVersionHash != model.versionHash else { return nil }
            return try SQLMigrationChainRun.plan(from: stored.model, to: model, versions: versions, path: path,
                                                 reader: connection, countingRows: countingRows)
        }
    }

    /// Migrates the store at `url` to `model` now, in one PostgreSQL transaction (DDL
    /// included): a failure, a lost connection or a `kill -9` at any moment leaves either the
    /// old store (which opens with the old model, every row as it was) or the migrated one.
    /// Returns what was done, or `nil` when the store already had that model.
    ///
    /// Stores opened elsewhere wait for the migration's lock while it runs, then fail to save
    /// (their model no longer matches the store's), as opening with the old model does.
    /// `versions` lists the model's earlier versions (``ModelVersionHistory``); `progress` is called as rows move; when `isCancelled` (asked after each table copied) says yes, the transaction is rolled back and `CancellationError` thrown.
    ///
    /// ```swift
    /// try PostgreSQLStore.migrate(url: url, to: newModel)
    /// let store = try PostgreSQLStore(url: url, model: newModel)
    /// ```
    /// - Throws: ``MigrationError`` (nothing written), ``StoreError``.
    @discardableResult
    public static func migrate(
        url: PostgreSQLStoreURL, to model: ManagedObjectModel, versions: ModelVersionHistory? = nil,
        progress: ((MigrationProgress) -> Void)? = nil, isCancelled: (() -> Bool)? = nil
    ) throws -> MigrationPlan? {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        let path = url.description
        let reporter = MigrationProgressReporter(progress, isCancelled: isCancelled)
        return try pool.transaction { connection -> MigrationPlan? in
            guard try hasMetadataTable(connection) else { throw StoreError.notAQuarryStore(path: path) }
            // Saves update the metadata table: they wait until the migration is over, and a
            // migration another process finished first is seen below and not repeated.
            try connection.execute(#"LOCK TABLE "Z_METADATA" IN EXCLUSIVE MODE"#)
            let stored = try readMetadata(connection, path: path).metadata
            guard stored.modelVersionHash != model.versionHash else { return nil }
            let plan = try SQLMigrationChainRun.migrate(from: stored.model, to: model, versions: versions, path: path,
                                                        reader: connection, progress: reporter) {
                PostgreSQLMigrationExecutor(step: $0, connection: connection)
            }
            try replaceModel(connection, with: model)
            try bumpModificationToken(connection)
            return plan
        }
    }

    /// Replaces the stored model (JSON, version hashes, the Quarry version) with `model`.
    static func replaceModel(_ connection: PostgreSQLConnection, with model: ManagedObjectModel) throws {
        try connection.execute(#"DELETE FROM "Z_METADATA" WHERE starts_with("key", $1)"#, bindings(MetadataKey.entityHashPrefix))
        for (key, value) in StoreMetadata.rows(recording: model) {
            var b = PGBindings()
            b.append(key)
            b.append(value)
            try connection.execute(#"""
                INSERT INTO "Z_METADATA" ("key", "value") VALUES ($1, $2) ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"
                """#, b)
        }
    }
}

/// A PostgreSQL connection answers a migration step's checks and row counts.
extension PostgreSQLConnection: MigrationDataReader {
    func count(_ sql: String) throws -> Int {
        try query(sql).first.map { try $0[0].decode(Int.self) } ?? 0
    }

    func rows(_ sql: String) throws -> [[String]] {
        try query(sql).map { row in
            try row.cells.map { cell -> String in
                guard !cell.isNull else { return "NULL" }
                switch cell.type {
                case .int2, .int4, .int8: return String(try cell.decode(Int64.self))
                case .float4, .float8: return String(try cell.decode(Double.self))
                case .text, .varchar, .bpchar, .name: return "\"\(try cell.decode(String.self))\""
                default: return "<\(cell.type)>"
                }
            }
        }
    }

    func literal(_ value: Value) -> String { PostgreSQLMigrationSQL.literal(value) }
}
