import Foundation
import Quarry

/// How commands other than `browse` open a store: a Quarry SQLite store, or a JSON store folder.
enum StoreOpening {
    /// Whether `path` names a JSON store (a folder; Quarry's SQLite stores are files).
    static func isJSONStore(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The model recorded in the store at `path`, read without writing anything.
    static func recordedModel(_ path: String) throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: path)
        let model = isJSONStore(path)
            ? try JSONStore(url: url, model: nil, readOnly: true).model
            : try SQLiteStore(url: url, model: nil, options: .init(readOnly: true)).model
        ModelLoading.reportWarnings(of: model)
        return model
    }

    /// Opens `path` read-only with the model it records.
    static func openReadOnly(_ path: String) throws -> PersistentStack {
        var options = options(for: path)
        options.readOnly = true
        return try PersistentStack(model: try recordedModel(path), options: options)
    }

    /// Opens `path` for writing with `model` (the one it records when `nil`).
    static func openForWriting(_ path: String, model: ManagedObjectModel?) throws -> PersistentStack {
        var options = options(for: path)
        // A different model is never migrated behind the user's back: `quarry migrate` does that.
        options.automaticLightweightMigration = false
        return try PersistentStack(model: try model ?? recordedModel(path), options: options)
    }

    private static func options(for path: String) -> PersistentStack.Options {
        var options = PersistentStack.Options()
        options.storeURL = URL(fileURLWithPath: path)
        options.storeType = isJSONStore(path) ? .json : .sqlite
        return options
    }
}
