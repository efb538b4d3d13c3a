import Foundation

extension PersistentStack {
    /// Opens the SQLite store at `url` with `sqliteOptions`; when it was made with another
    /// model and ``Options/onModelMismatch`` is set (and the open is not read-only), the
    /// delegate decides: migrate, refuse or replace.
    static func openSQLiteStore(url: URL, model: ManagedObjectModel, sqliteOptions: SQLiteStore.Options,
                                options: Options) throws -> SQLiteStore {
        guard let decide = options.onModelMismatch, !options.readOnly else {
            return try SQLiteStore(url: url, model: model, options: sqliteOptions)
        }
        var checking = sqliteOptions
        checking.migratesAutomatically = false
        do {
            // Refuses a store of another model before writing anything to it.
            return try SQLiteStore(url: url, model: model, options: checking)
        } catch StoreError.modelMismatch(let path, let entities) {
            switch decide(ModelMismatch(storeURL: url, storeType: .sqlite, entities: entities)) {
            case .refuse:
                throw StoreError.modelMismatch(path: path, entities: entities)
            case .migrate:
                var migrating = sqliteOptions
                migrating.migratesAutomatically = true
                return try SQLiteStore(url: url, model: model, options: migrating)
            case .replace:
                removeSQLiteStoreFiles(at: url)
                try copySeed(options, to: url)
                return try SQLiteStore(url: url, model: model, options: sqliteOptions)
            }
        }
    }

    /// Opens the JSON store folder at `url`; when it was made with another model and
    /// ``Options/onModelMismatch`` is set (and the open is not read-only), the delegate decides:
    /// replace, or refuse (a JSON store is never migrated, so `.migrate` refuses too).
    static func openJSONStore(url: URL, model: ManagedObjectModel, options: Options) throws -> JSONStore {
        do {
            return try JSONStore(url: url, model: model, readOnly: options.readOnly)
        } catch StoreError.modelMismatch(let path, let entities) {
            guard let decide = options.onModelMismatch, !options.readOnly,
                  decide(ModelMismatch(storeURL: url, storeType: .json, entities: entities)) == .replace else {
                throw StoreError.modelMismatch(path: path, entities: entities)
            }
            // The folder holds _Metadata.json (its model was read from there): a JSON store.
            try FileManager.default.removeItem(at: url)
            try copySeed(options, to: url)
            return try JSONStore(url: url, model: model, readOnly: options.readOnly)
        }
    }

    /// Copies ``Options/seedStoreURL`` to `url` when set and nothing is there (a first run).
    static func copySeed(_ options: Options, to url: URL) throws {
        if let seed = options.seedStoreURL, !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.copyItem(at: seed, to: url)
        }
    }
}
