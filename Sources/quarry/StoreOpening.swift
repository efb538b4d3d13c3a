import Foundation
import Quarry
import QuarryTUI

/// How commands other than `browse` open a store: a Quarry SQLite store, a JSON store folder,
/// or a PostgreSQL store named by its `postgres://` URL (see ``PostgreSQLStoreOpening``).
enum StoreOpening {
    /// Whether `path` names a JSON store (a folder; Quarry's SQLite stores are files).
    static func isJSONStore(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The database Quarry did not make at `path` (any SQLite file, an Apple Core Data store),
    /// looked at without writing anything, its warnings printed on stderr; `nil` for a Quarry
    /// store, a JSON store folder, an empty file or nothing at all.
    /// - Parameter modelPath: `--model`, whose versions a Core Data store chooses from.
    static func foreignDatabase(_ path: String, modelPath: String? = nil) throws -> ForeignDatabase? {
        guard !isJSONStore(path), FileManager.default.fileExists(atPath: path), try ForeignDatabase.isForeign(path: path) else {
            return nil
        }
        var candidates: [ModelVersionHistory.Version] = []
        if let modelPath {
            if let history = try MigrationConsole.versions(forModelAt: modelPath) {
                candidates = history.versions
            } else {
                candidates = [.init(name: URL(fileURLWithPath: modelPath).lastPathComponent, model: try ModelLoading.load(modelAt: modelPath))]
            }
        }
        let database = try ForeignDatabase.open(path: path, candidates: candidates)
        for warning in database.warnings {
            FileHandle.standardError.write(Data("quarry: warning: \(ConsoleText.escapedLines(warning))\n".utf8))
        }
        return database
    }

    /// A store to read `path` through: a JSON store folder, a Quarry SQLite store, or the
    /// database Quarry did not make that `foreign` describes; always read-only.
    static func readOnlyStore(_ path: String, model: ManagedObjectModel, foreign: ForeignDatabase?) throws -> any PersistentStore {
        if PostgreSQLStoreOpening.isURL(path) { return try PostgreSQLStoreOpening.store(path, model: model, readOnly: true) }
        let url = URL(fileURLWithPath: path)
        if let foreign { return try SQLiteStore(foreign: foreign) }
        return isJSONStore(path)
            ? try JSONStore(url: url, model: model, readOnly: true)
            : try SQLiteStore(url: url, model: model, options: .init(readOnly: true))
    }

    /// The model recorded in the store at `path`, read without writing anything (a database
    /// Quarry did not make records none: see ``foreignDatabase(_:modelPath:)``).
    static func recordedModel(_ path: String) throws -> ManagedObjectModel {
        if PostgreSQLStoreOpening.isURL(path) {
            let model = try PostgreSQLStoreOpening.store(path, model: nil, readOnly: true).model
            ModelLoading.reportWarnings(of: model)
            return model
        }
        let url = URL(fileURLWithPath: path)
        let model = isJSONStore(path)
            ? try JSONStore.recordedModel(url: url)
            : try SQLiteStore.recordedModel(url: url)
        ModelLoading.reportWarnings(of: model)
        return model
    }

    /// Opens `path` read-only with the model it records (for a database Quarry did not make,
    /// the model recovered from it).
    static func openReadOnly(_ path: String) throws -> PersistentStack {
        var options = try options(for: path)
        options.readOnly = true
        if let foreign = try foreignDatabase(path) {
            options.foreignDatabase = foreign
            return try PersistentStack(model: foreign.model, options: options)
        }
        return try PersistentStack(model: try recordedModel(path), options: options)
    }

    /// Opens `path` for writing with `model` (the one it records when `nil`); a database
    /// Quarry did not make is refused, naming it (it is only ever read).
    static func openForWriting(_ path: String, model: ManagedObjectModel?) throws -> PersistentStack {
        try refuseWriting(path)
        var options = try options(for: path)
        // A different model is never migrated behind the user's back: `quarry migrate` does that.
        options.automaticLightweightMigration = false
        return try PersistentStack(model: try model ?? recordedModel(path), options: options)
    }

    private static func options(for path: String) throws -> PersistentStack.Options {
        if PostgreSQLStoreOpening.isURL(path) { return try PostgreSQLStoreOpening.stackOptions(path) }
        var options = PersistentStack.Options()
        options.storeURL = URL(fileURLWithPath: path)
        options.storeType = isJSONStore(path) ? .json : .sqlite
        return options
    }

    /// Throws when `path` is a database Quarry did not make: those are opened read-only.
    static func refuseWriting(_ path: String) throws {
        guard !isJSONStore(path), FileManager.default.fileExists(atPath: path),
              (try? ForeignDatabase.isForeign(path: path)) == true else { return }
        throw CommandFailure("\(path): not a Quarry store; SQLite databases and Core Data stores Quarry did not make are opened read-only (writing them is not supported)")
    }
}
