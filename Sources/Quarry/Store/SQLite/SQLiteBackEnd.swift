import Foundation

/// A stack's SQLite back end: a store file Quarry made, opened once per coordinator (each with
/// its own connections), both writing history with one origin, and watched for other
/// processes' commits (``SQLiteChangeFeed``).
struct SQLiteBackEnd: StoreBackEnd {
    /// The store file.
    let url: URL
    let main: SQLiteStore
    let writer: SQLiteStore

    /// Opens the store file `options` name (made, or copied from the seed, when absent). The
    /// writer's store opens first: it asks ``PersistentStack/Options/onModelMismatch``, so the
    /// main one finds the store as decided.
    static func open(model: ManagedObjectModel, options: PersistentStack.Options) throws -> SQLiteBackEnd {
        let url = try options.preparedStoreLocation()
        var storeOptions = SQLiteStore.Options()
        storeOptions.busyTimeout = options.busyTimeout
        storeOptions.readOnly = options.readOnly
        storeOptions.migratesAutomatically = options.automaticLightweightMigration
        storeOptions.modelVersions = options.modelVersions
        storeOptions.migrationProgress = options.migrationProgress
        storeOptions.recordsHistory = options.recordsPersistentHistory
        storeOptions.historyOrigin = options.historyOrigin ?? UUID()
        let writer = try openDeciding(url: url, model: model, storeOptions: storeOptions, options: options)
        let main = try SQLiteStore(url: url, model: model, options: storeOptions)
        return SQLiteBackEnd(url: url, main: main, writer: writer)
    }

    var historyOrigin: UUID? { writer.historyOrigin }

    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        try main.changeFeed(origin: origin, deliver: deliver)
    }

    /// Deletes the store file, its `-wal` and its `-shm`.
    func destroy() throws {
        try SQLiteStore.removeFiles(at: url)
    }

    /// Opens the store at `url`; when it was made with another model and
    /// ``PersistentStack/Options/onModelMismatch`` is set (and the open is not read-only), the
    /// delegate decides: migrate, refuse or replace.
    private static func openDeciding(url: URL, model: ManagedObjectModel, storeOptions: SQLiteStore.Options,
                                     options: PersistentStack.Options) throws -> SQLiteStore {
        guard let decide = options.onModelMismatch, !options.readOnly else {
            return try SQLiteStore(url: url, model: model, options: storeOptions)
        }
        var checking = storeOptions
        checking.migratesAutomatically = false
        do {
            // Refuses a store of another model before writing anything to it.
            return try SQLiteStore(url: url, model: model, options: checking)
        } catch StoreError.modelMismatch(let path, let entities) {
            switch decide(PersistentStack.ModelMismatch(storeURL: url, storeType: .sqlite, entities: entities)) {
            case .refuse:
                throw StoreError.modelMismatch(path: path, entities: entities)
            case .migrate:
                var migrating = storeOptions
                migrating.migratesAutomatically = true
                return try SQLiteStore(url: url, model: model, options: migrating)
            case .replace:
                try SQLiteStore.removeFiles(at: url)
                try options.copySeed(to: url)
                return try SQLiteStore(url: url, model: model, options: storeOptions)
            }
        }
    }
}
