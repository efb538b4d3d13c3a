import Foundation
import Quarry

/// How commands other than `browse` open a store: a Quarry SQLite store, or a JSON store folder.
enum StoreOpening {
    /// Opens `path` read-only with the model it records.
    static func openReadOnly(_ path: String) throws -> PersistentStack {
        var options = PersistentStack.Options()
        options.storeURL = URL(fileURLWithPath: path)
        options.readOnly = true
        let model = try SQLiteStore(url: URL(fileURLWithPath: path), model: nil, options: .init(readOnly: true)).model
        ModelLoading.reportWarnings(of: model)
        return try PersistentStack(model: model, options: options)
    }

    /// Opens `path` for writing with `model` (the one it records when `nil`).
    static func openForWriting(_ path: String, model: ManagedObjectModel?) throws -> PersistentStack {
        let url = URL(fileURLWithPath: path)
        let resolved = try model ?? SQLiteStore(url: url, model: nil, options: .init(readOnly: true)).model
        var options = PersistentStack.Options()
        options.storeURL = url
        // A different model is never migrated behind the user's back: `quarry migrate` does that.
        options.automaticLightweightMigration = false
        return try PersistentStack(model: resolved, options: options)
    }
}
