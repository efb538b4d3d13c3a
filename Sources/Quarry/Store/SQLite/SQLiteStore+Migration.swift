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
            let chain = MigrationChain(stored: stored.model, target: model, versions: versions)
            var steps: [MigrationPlan.Step] = []
            for (i, (from, to)) in zip(chain.models, chain.models.dropFirst()).enumerated() {
                // Later steps start from data only the earlier ones would write: planned without it.
                let data = i == 0 && countingRows ? db : nil
                let step = MigrationStep(source: from.model, destination: to.model,
                                               maxKeys: try maxKeys(db, layout: StoreLayout(model: from.model), exists: i == 0))
                try step.check(data, path: path)
                steps.append(MigrationPlan.Step(sourceVersion: from.name, destinationVersion: to.name, entities: try step.entityChanges(data)))
            }
            return MigrationPlan(path: path, steps: steps, notes: chain.notes)
        }
    }

    /// Migrates the store at `url` to `model` now, in one transaction: a crash or `kill -9` at
    /// any moment leaves either the old store (which opens with the old model) or the migrated
    /// one. Returns what was done, or `nil` when the store already had that model.
    ///
    /// `versions` lets a store written with any version of a bundle migrate through the
    /// versions in between (see ``ModelVersionHistory``). `progress` is called on the calling
    /// thread after each chunk of rows a copy moves.
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
        progress: ((MigrationProgress) -> Void)? = nil
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
        return try migrate(writer: queue, path: path, to: model, versions: versions, progress: progress)
    }

    /// Runs the migration on `writer` in one `IMMEDIATE` transaction (re-reading the metadata
    /// inside it, so a migration another process finished first is not repeated).
    static func migrate(
        writer: some DatabaseWriter, path: String, to model: ManagedObjectModel, versions: ModelVersionHistory?,
        progress: ((MigrationProgress) -> Void)?
    ) throws -> MigrationPlan? {
        let reporter = MigrationProgressReporter(progress)
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
        let chain = MigrationChain(stored: stored.model, target: model, versions: versions)
        let pairs = Array(zip(chain.models, chain.models.dropFirst()))
        var steps: [MigrationPlan.Step] = []
        for (i, (from, to)) in pairs.enumerated() {
            let step = MigrationStep(source: from.model, destination: to.model,
                                           maxKeys: try maxKeys(db, layout: StoreLayout(model: from.model), exists: true))
            try step.check(db, path: path)
            let changes = try step.entityChanges(nil)
            progress.begin(step: i + 1, of: pairs.count, total: try step.rowsToCopy(db))
            try step.execute(db, path: path, progress: progress)
            steps.append(MigrationPlan.Step(sourceVersion: from.name, destinationVersion: to.name, entities: changes))
        }
        try replaceModel(db: db, with: model)
        try bumpModificationToken(db)
        return MigrationPlan(path: path, steps: steps, notes: chain.notes)
    }

    /// The largest primary key of each table of `layout`, by table name.
    private static func maxKeys(_ db: Database, layout: StoreLayout, exists: Bool) throws -> [String: Int64] {
        guard exists else { return [:] }
        var result: [String: Int64] = [:]
        for table in layout.tables {
            result[table.name] = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(sqlIdentifier(table.name))") ?? 0
        }
        return result
    }
}

extension MigrationStep {
    /// The rows the step's copies move, for progress.
    func rowsToCopy(_ db: any MigrationDataReader) throws -> Int {
        var total = 0
        for case .copy(let sources) in tables {
            for (_, oldEntity) in sources { total += try ownRows(db, oldEntity) }
        }
        return total
    }
}
