import Foundation
import GRDB
import GRDBSQLite

/// The SQLite persistent store: one file, laid out like a Core Data store, written in WAL mode
/// through a GRDB `DatabasePool`.
///
/// Several instances may be open on one file at once (a stack opens two, for its main and
/// writer coordinators): each save is one `IMMEDIATE` transaction that allocates primary keys
/// from `Z_PRIMARYKEY` and checks row versions (`Z_OPT`), so concurrent writers never collide
/// silently. Reads see committed data only and never block writers.
///
/// The file keeps its model as JSON in `Z_METADATA`, so it can be opened without a model file.
/// Opening it with a model whose version hash differs migrates the store when
/// ``Options/migratesAutomatically`` is on (see ``migrate(url:to:versions:busyTimeout:progress:isCancelled:)``);
/// otherwise it throws ``StoreError/modelMismatch(path:entities:)`` and leaves the file untouched.
///
/// Values are stored as: integers `INTEGER`; doubles and floats `REAL`; decimals `TEXT`;
/// strings `TEXT`; booleans `INTEGER` 0/1; dates `REAL` (seconds since 2001-01-01);
/// binary `BLOB`; UUIDs `TEXT` (`uuidString`); URIs `TEXT`; transformables `TEXT` (JSON).
///
/// ```swift
/// let store = try SQLiteStore(url: url, model: model)
/// let result = try store.save(changes) { _ in .fail }
/// let reopened = try SQLiteStore(url: url, model: nil)   // model read from the file
/// ```
///
/// Thread safety: every method may be called from any thread; GRDB's pool serializes writes
/// and runs reads concurrently.
public final class SQLiteStore: PersistentStore {
    /// The store's UUID, fixed when the file was created.
    public let identifier: UUID
    /// The model the store was opened with (read from the file when none was given).
    public let model: ManagedObjectModel
    /// The location of the store file.
    public let fileURL: URL
    /// The options the store was opened with.
    public let options: Options

    let pool: DatabasePool
    /// Whether the pool opened the file with `immutable=1`.
    let poolOpenedImmutable: Bool
    /// Checkpoints the write-ahead log after saves (`nil` for a foreign database, never written).
    let checkpointer: SQLiteCheckpointer?
    let layout: StoreLayout
    let statements: SQLiteRowStatements
    let path: String
    /// The database Quarry did not make that this store reads through views (see
    /// ``init(viewing:busyTimeout:)``), or `nil` for a Quarry store.
    let viewed: SQLiteViewedDatabase?
    /// Whether saves append persistent history (see ``PersistentHistoryStore``): fixed in the
    /// file when it was made (``Options/recordsHistory``) or upgraded; `false` for a store made
    /// before history existed that was opened read-only, and for a foreign database.
    public let recordsHistory: Bool
    /// The origin this store writes with its history transactions (``Options/historyOrigin``).
    public let historyOrigin: UUID
    /// For a store pinned to one moment (``pinnedGeneration()``): the connection holding the
    /// read transaction every read of this store goes through; `nil` for a live store.
    let pinnedSnapshot: DatabaseSnapshot?

    /// The store file's URL.
    public var url: URL? { fileURL }
    /// When this store's last commit became visible to other connections (`DispatchTime`
    /// uptime nanoseconds, the system's monotonic clock; 0 before the first): where the
    /// `remote-merge` benchmark times another process's merge from.
    @_spi(Benchmarks) public var lastCommitUptime: UInt64 { checkpointer?.lastCommitUptime ?? 0 }
    /// Whether saves are refused (``Options/readOnly``).
    public var isReadOnly: Bool { options.readOnly }
    /// Whether the store reads its file alone, as it was when opened: a read-only store whose
    /// file had no `-wal` (see `poolPath(_:readOnly:)`). Nothing it reads can change, so there
    /// is nothing to watch, and watching would make SQLite create the `-wal` and `-shm` a
    /// read-only command must not leave (or fail to, on read-only media).
    public var readsFileAsOpened: Bool { options.readOnly && poolOpenedImmutable }

    /// Opens the store at `url`, creating it (schema and metadata in one transaction) when the
    /// file does not exist or is empty.
    ///
    /// - Parameters:
    ///   - url: The store file.
    ///   - model: The model to open with; `nil` uses the model stored in the file.
    ///   - options: Read-only mode and busy timeout.
    /// - Throws: ``StoreError/notADatabase(path:)`` for a file that is not SQLite (left
    ///   untouched), ``StoreError/modelMismatch(path:entities:)`` when `model` differs from
    ///   the stored one, ``StoreError/notAQuarryStore(path:)`` for an SQLite file with tables of
    ///   its own, ``StoreError/missingMetadata(path:)`` for an empty one opened without a model,
    ///   ``StoreError/cannotOpen(path:reason:)`` for a directory, ``StoreError/locked(path:)``
    ///   when creation cannot get the write lock. A refused file, its `-wal` and `-shm` are
    ///   never written.
    public init(url: URL, model: ManagedObjectModel?, options: Options = .init()) throws {
        let path = url.path
        self.path = path
        self.fileURL = url
        self.options = options
        self.viewed = nil
        self.historyOrigin = options.historyOrigin ?? UUID()
        try FileKind.requireStorePath(path, directories: true)
        let exists = FileManager.default.fileExists(atPath: path)
        var existingMetadata: Metadata?
        var needsMigration = false
        if exists {
            // Decide from a look that writes nothing (see ``peek(path:busyTimeout:)``): a file
            // Quarry refuses is never opened for writing, so it and its -wal/-shm stay as they were.
            let found = try Self.peek(path: path, busyTimeout: options.busyTimeout)
            if let metadata = found.metadata {
                if let model, model.versionHash != metadata.modelVersionHash, options.migratesAutomatically, !options.readOnly {
                    needsMigration = true
                } else {
                    _ = try Self.check(metadata, against: model, path: path)
                }
            } else if found.hasOtherTables {
                throw StoreError.notAQuarryStore(path: path)
            } else if model == nil || options.readOnly {
                throw StoreError.missingMetadata(path: path)
            }
            existingMetadata = found.metadata
        } else if options.readOnly {
            throw StoreError.cannotOpen(path: path, reason: "no such file (a read-only store is never created)")
        }

        var configuration = Configuration()
        configuration.label = "Quarry.SQLiteStore"
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.readonly = options.readOnly
        let checkpointer = SQLiteCheckpointer()
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(db)
            checkpointer.install(on: db)
        }
        if exists && !options.readOnly { try Self.prepareLogForWriting(path: path) }
        let pool: DatabasePool
        let poolPath = Self.poolPath(path, readOnly: options.readOnly)
        poolOpenedImmutable = poolPath != path
        do {
            pool = try Self.inProcessOpening.withLock { _ in
                let pool = try DatabasePool(path: poolPath, configuration: configuration)
                // The first read transaction maps the shared-memory index, read-write: a look
                // taken after it in this process shares it (see `inProcessOpening`).
                _ = try pool.read { try Int.fetchOne($0, sql: "PRAGMA schema_version") }
                return pool
            }
            if options.readOnly {
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = 1") }
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
        self.pool = pool
        self.pinnedSnapshot = nil
        checkpointer.attach(pool)
        self.checkpointer = checkpointer

        let identifier: UUID
        let resolvedModel: ManagedObjectModel
        var created = false
        do {
            if needsMigration, let model {
                _ = try Self.migrate(writer: pool, path: path, to: model, versions: options.modelVersions, progress: options.migrationProgress)
                existingMetadata = nil
            }
            if let stored = try existingMetadata ?? pool.read({ try Self.readMetadata(db: $0, path: path) }) {
                (identifier, resolvedModel) = try Self.check(stored, against: model, path: path)
            } else {
                guard let model else { throw StoreError.missingMetadata(path: path) }
                (identifier, resolvedModel) = try Self.create(pool: pool, model: model, path: path, recordsHistory: options.recordsHistory)
                created = true
            }
            recordsHistory = try Self.prepareHistory(pool: pool, options: options)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw Self.storeError(error, path: path)
        }
        self.identifier = identifier
        self.model = resolvedModel
        self.layout = StoreLayout.of(resolvedModel)
        self.statements = SQLiteRowStatements(layout: layout, model: resolvedModel)
        // A store made just now has this layout; only an older one can lack columns.
        if !created { try repairOlderLayout() }
    }

    /// A copy of `store` reading through `snapshot` (``pinnedGeneration()``): read-only, no
    /// checkpointer, the same identity, model and layout.
    init(copying store: SQLiteStore, snapshot: DatabaseSnapshot) {
        var options = store.options
        options.readOnly = true
        self.identifier = store.identifier
        self.model = store.model
        self.fileURL = store.fileURL
        self.options = options
        self.pool = store.pool
        self.pinnedSnapshot = snapshot
        self.poolOpenedImmutable = store.poolOpenedImmutable
        self.checkpointer = nil
        self.layout = store.layout
        self.statements = store.statements
        self.path = store.path
        self.viewed = store.viewed
        self.recordsHistory = store.recordsHistory
        self.historyOrigin = store.historyOrigin
    }

    /// Opens a database Quarry did not make, always read-only, through `TEMP` views shaped as
    /// its model's layout (see ``SQLiteViewedDatabase``), so the file is never written. The
    /// foreign back end opens it (``init(foreign:busyTimeout:)``).
    ///
    /// - Throws: ``StoreError`` when SQLite cannot open the file or make the views.
    init(viewing database: SQLiteViewedDatabase, busyTimeout: TimeInterval) throws {
        let path = database.path
        self.path = path
        self.fileURL = URL(fileURLWithPath: path)
        self.options = Options(readOnly: true, busyTimeout: busyTimeout)
        self.viewed = database
        self.recordsHistory = false
        self.historyOrigin = UUID()
        self.identifier = database.identifier
        self.model = database.model
        self.layout = StoreLayout.of(database.model)
        self.statements = SQLiteRowStatements(layout: layout, model: database.model)
        self.pool = try Self.viewsPool(database, busyTimeout: busyTimeout)
        self.pinnedSnapshot = nil
        self.poolOpenedImmutable = true
        self.checkpointer = nil
    }

    /// A store an older Quarry made for a model whose clashing names then shared a column gets
    /// the columns its layout now has (see ``missingColumns(_:layout:)``); opened read-only, it
    /// is refused with what is missing, since repairing means writing.
    private func repairOlderLayout() throws {
        do {
            let missing = try pool.read { try Self.missingColumns($0, layout: layout) }
            guard !missing.isEmpty else { return }
            if options.readOnly {
                let names = missing.sorted { $0.key < $1.key }.flatMap { table in table.value.map { "\(table.key).\($0.name)" } }
                throw StoreError.cannotOpen(path: path, reason: "made by an older Quarry whose layout lacks \(names.joined(separator: ", ")); open it once for writing to add them")
            }
            try pool.write { try Self.repairLayout($0, layout: layout, model: model, missing: missing) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Why the file is only ever opened through SQLite, never with `open`/`FileHandle`: POSIX
    /// advisory locks belong to the process, and closing *any* descriptor of the file drops every
    /// lock the process holds on it, including the `SHARED` lock that this process's WAL
    /// connections (another store on the same file, e.g. a stack's second coordinator) keep on
    /// the database. Without that lock, another process closing its last connection takes the
    /// `EXCLUSIVE` lock, checkpoints and deletes `-wal` and `-shm` under this process, which then
    /// commits into an unlinked log (lost to every other process) and checkpoints it into the
    /// file behind their backs (they read torn pages: `SQLITE_CORRUPT`). SQLite's own opens share
    /// one descriptor set per file and defer closing, so they keep the locks.
    ///
    /// The path the pool opens: a read-only store without `-wal` (or whose `-wal` holds no
    /// committed transaction) is fully checkpointed and is opened `immutable=1`, so reading it creates no `-wal`/`-shm` beside it (a read-only
    /// connection would create both and, unable to checkpoint, leave them behind).
    static func poolPath(_ path: String, readOnly: Bool) -> String {
        guard readOnly, sqlite3_compileoption_used("USE_URI") == 1 else { return path }
        if FileManager.default.fileExists(atPath: path + "-wal") {
            do {
                guard (try WriteAheadLog.read(path: path + "-wal"))?.committedFrames ?? 0 == 0 else { return path }
            } catch {
                // A `-wal` that cannot be read may hold commits: the ordinary open reads them.
                return path
            }
        }
        return fileURI(path) + "?immutable=1"
    }

    private static func check(_ stored: Metadata, against model: ManagedObjectModel?, path: String) throws -> (UUID, ManagedObjectModel) {
        guard let model else { return (stored.identifier, stored.model) }
        guard model.versionHash == stored.modelVersionHash else {
            var entities = StoreMetadata.differingEntities(stored: stored.entityVersionHashes, current: model)
            if entities.isEmpty { entities = model.entities.map(\.name) }
            throw StoreError.modelMismatch(path: path, entities: entities)
        }
        return (stored.identifier, model)
    }

    /// Creates schema and metadata, unless another connection did it first.
    private static func create(pool: DatabasePool, model: ManagedObjectModel, path: String, recordsHistory: Bool) throws -> (UUID, ManagedObjectModel) {
        try pool.writeWithoutTransaction { db in
            var result: (UUID, ManagedObjectModel)?
            try db.inTransaction(.immediate) {
                if let stored = try readMetadata(db: db, path: path) {
                    result = try check(stored, against: model, path: path)
                    return .commit
                }
                let nonQuarryTables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                guard nonQuarryTables.isEmpty else { throw StoreError.missingMetadata(path: path) }
                for sql in StoreLayout.of(model).schemaStatements(model: model) { try db.execute(sql: sql) }
                let identifier = UUID()
                try writeMetadata(db: db, identifier: identifier, model: model)
                try createHistory(db, records: recordsHistory)
                result = (identifier, model)
                return .commit
            }
            return result!
        }
    }
}
