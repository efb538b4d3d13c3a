import Foundation
import Quarry
import QuarryTUI

/// How commands other than `browse` open the store a ``StoreLocation`` names: a Quarry SQLite
/// store, a JSON store folder, a PostgreSQL store (see ``PostgreSQLStoreOpening``), or, only
/// ever read, a database Quarry did not make.
enum StoreOpening {
    /// The database Quarry did not make at `location` (see ``foreignDatabase(at:modelPath:)``);
    /// `nil` for any other location.
    static func foreignDatabase(_ location: StoreLocation, modelPath: String? = nil) throws -> ForeignDatabase? {
        guard case .foreignDatabase(let path) = location else { return nil }
        return try foreignDatabase(at: path, modelPath: modelPath)
    }

    /// The database Quarry did not make at `path` (any SQLite file, an Apple Core Data store:
    /// its ``ForeignDatabase/kind`` says which), opened without writing anything, its warnings
    /// printed on stderr.
    /// - Parameter modelPath: `--model`, whose versions a Core Data store chooses from.
    static func foreignDatabase(at path: String, modelPath: String? = nil) throws -> ForeignDatabase {
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

    /// A store to read `location` through: a PostgreSQL store, a JSON store folder, a Quarry
    /// SQLite store, or the database Quarry did not make that `foreign` describes; always
    /// read-only.
    static func readOnlyStore(_ location: StoreLocation, model: ManagedObjectModel, foreign: ForeignDatabase?) throws -> any PersistentStore {
        switch location {
        case .postgreSQL(let url):
            return try PostgreSQLStoreOpening.store(url, model: model, readOnly: true)
        case .jsonFolder(let path):
            return try JSONStore(url: URL(fileURLWithPath: path), model: model, readOnly: true)
        case .sqliteFile(let path), .foreignDatabase(let path):
            if let foreign { return try SQLiteStore(foreign: foreign) }
            return try SQLiteStore(url: URL(fileURLWithPath: path), model: model, options: .init(readOnly: true))
        }
    }

    /// The model recorded in the store at `location`, read without writing anything (a
    /// database Quarry did not make records none: see ``foreignDatabase(_:modelPath:)``).
    static func recordedModel(_ location: StoreLocation) throws -> ManagedObjectModel {
        let model: ManagedObjectModel
        switch location {
        case .postgreSQL(let url):
            let store = try PostgreSQLStoreOpening.store(url, model: nil, readOnly: true)
            PostgreSQLStoreOpening.reportWarnings(of: store)
            model = store.model
        case .jsonFolder(let path):
            model = try JSONStore.recordedModel(url: URL(fileURLWithPath: path))
        case .sqliteFile(let path), .foreignDatabase(let path):
            model = try SQLiteStore.recordedModel(url: URL(fileURLWithPath: path))
        }
        ModelLoading.reportWarnings(of: model)
        return model
    }

    /// Opens `location` read-only with the model it records (for a database Quarry did not
    /// make, the model recovered from it).
    static func openReadOnly(_ location: StoreLocation) throws -> PersistentStack {
        var options = try stackOptions(for: location)
        options.readOnly = true
        if let foreign = try foreignDatabase(location) {
            options.foreignDatabase = foreign
            return try PersistentStack(model: foreign.model, options: options)
        }
        return try PersistentStack(model: try recordedModel(location), options: options)
    }

    /// Opens `location` for writing with `model` (the one it records when `nil`); a database
    /// Quarry did not make is refused, naming it (it is only ever read).
    static func openForWriting(_ location: StoreLocation, model: ManagedObjectModel?) throws -> PersistentStack {
        try refuseWriting(location)
        var options = try stackOptions(for: location)
        // A different model is never migrated behind the user's back: `quarry migrate` does that.
        options.automaticLightweightMigration = false
        return try PersistentStack(model: try model ?? recordedModel(location), options: options)
    }

    /// Whether a store is at `location` already: anything at the path (a symbolic link
    /// followed; nothing there is opened), or a store in the PostgreSQL URL's schema (its
    /// server asked).
    static func storeExists(at location: StoreLocation) throws -> Bool {
        switch location {
        case .postgreSQL(let url): return try PostgreSQLStoreOpening.exists(url)
        case .jsonFolder, .foreignDatabase: return true
        case .sqliteFile(let path): return FileKind(path: path).kind != .missing
        }
    }

    /// Stack options opening the store at `location`.
    static func stackOptions(for location: StoreLocation) throws -> PersistentStack.Options {
        if case .postgreSQL(let url) = location { return try PostgreSQLStoreOpening.stackOptions(url) }
        var options = PersistentStack.Options()
        options.storeURL = location.fileURL
        if case .jsonFolder = location { options.storeType = .json } else { options.storeType = .sqlite }
        return options
    }

    /// Throws when `location` is a database Quarry did not make: those are opened read-only.
    static func refuseWriting(_ location: StoreLocation) throws {
        guard case .foreignDatabase(let path) = location else { return }
        throw CommandFailure("\(path): not a Quarry store; SQLite databases and Core Data stores Quarry did not make are opened read-only (writing them is not supported)")
    }
}
