import Foundation
import GRDB

extension SQLiteStore {
    /// What migrating the store at `url` to `model` would do, or `nil` when the store already
    /// has that model. Reads the store without writing anything (no `-wal`/`-shm` is created).
    ///
    /// With `countingRows`, each entity's rows are counted and the first step's refusals are
    /// checked against the data (a required attribute without values, duplicates under a new
    /// uniqueness constraint), as a migration would.
    ///
    /// ```swift
    /// if let plan = try SQLiteStore.migrationPlan(url: url, to: model) { print(plan) }
    /// ```
    /// - Throws: ``MigrationError`` when the migration would be refused; ``StoreError`` when
    ///   the file is not a Quarry store.
    public static func migrationPlan(
        url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory? = nil, countingRows: Bool = true
    ) throws -> MigrationPlan? {
        let path = url.path
        guard let stored = try peek(path: path).metadata else { throw StoreError.notAQuarryStore(path: path) }
        guard stored.modelVersionHash != model.versionHash else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: poolPath(path, readOnly: true), configuration: configuration)
        } catch {
            throw storeError(error, path: path)
        }
        return try queue.read { db in
            try SQLMigrationChainRun.plan(from: stored.model, to: model, versions: versions, path: path, reader: db, countingRows: countingRows)
        }
    }

    /// Migrates the store at `url` to `model` now, in one transaction: a crash or `kill -9` at
    /// any moment leaves either the old store (which opens with the old model) or the migrated
    /// one. Returns what was done, or `nil` when the store already had that model.
    ///
    /// `versions` lets a store written with any version of a bundle migrate through the
    /// versions in between (see ``ModelVersionHistory``). `progress` is called on the calling
    /// thread after each chunk of rows a copy moves. When `isCancelled` (asked after each such
    /// chunk) says yes, the migration's transaction is rolled back and `CancellationError` thrown:
    /// the store keeps its old model, untouched.
    ///
    /// The in-memory store is never migrated (it is created empty with its model).
    ///
    /// ```swift
    /// try SQLiteStore.migrate(url: url, to: newModel) { print($0.rowsCopied, "/", $0.rowsTotal) }
    /// let store = try SQLiteStore(url: url, model: newModel)
    /// ```
    /// - Throws: ``MigrationError`` (nothing written), ``StoreError``.
    @discardableResult
    public static func migrate(
        url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory? = nil, busyTimeout: TimeInterval = 5,
        progress: ((MigrationProgress) -> Void)? = nil, isCancelled: (() -> Bool)? = nil
    ) throws -> MigrationPlan? {
        let path = url.path
        guard let stored = try peek(path: path, busyTimeout: busyTimeout).metadata else { throw StoreError.notAQuarryStore(path: path) }
        guard stored.modelVersionHash != model.versionHash else { return nil }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw storeError(error, path: path)
        }
        return try migrate(writer: queue, path: path, to: model, versions: versions, progress: progress, isCancelled: isCancelled)
    }

    /// Runs the migration on `writer` in one `IMMEDIATE` transaction (re-reading the metadata
    /// inside it, so a migration another process finished first is not repeated).
    static func migrate(
        writer: some DatabaseWriter, path: String, to model: ManagedObjectModel, versions: ModelVersionHistory?,
        progress: ((MigrationProgress) -> Void)?, isCancelled: (() -> Bool)? = nil
    ) throws -> MigrationPlan? {
        let reporter = MigrationProgressReporter(progress, isCancelled: isCancelled)
        do {
            return try writer.writeWithoutTransaction { db -> MigrationPlan? in
                // Make sure the journal is WAL (a copied or fresh file may not be) before the transaction.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                var plan: MigrationPlan?
                try db.inTransaction(.immediate) {
                    plan = try migrate(db, path: path, to: model, versions: versions, progress: reporter)
                    return .commit
                }
                return plan
            }
        } catch let error as MigrationError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw storeError(error, path: path)
        }
    }

    /// The migration proper, inside the caller's transaction.
    static func migrate(
        _ db: Database, path: String, to model: ManagedObjectModel, versions: ModelVersionHistory?, progress: MigrationProgressReporter
    ) throws -> MigrationPlan? {
        guard let stored = try readMetadata(db: db, path: path) else { throw StoreError.notAQuarryStore(path: path) }
        guard stored.modelVersionHash != model.versionHash else { return nil }
        db.add(function: DatabaseFunction(AttributeConversion.base64Function, argumentCount: 1, pure: true) { values in
            Data.fromDatabaseValue(values[0])?.base64EncodedString()
        })
        let plan = try SQLMigrationChainRun.migrate(from: stored.model, to: model, versions: versions, path: path, reader: db,
                                                    progress: progress) { SQLiteMigrationExecutor(step: $0, db: db) }
        try replaceModel(db: db, with: model)
        try bumpModificationToken(db)
        return plan
    }
}
