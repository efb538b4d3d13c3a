import Foundation
import GRDB

// Opening lives with the Core Data back end: it is the one place that tells a Core Data
// store (read by ``CoreDataStoreReader``) from any other SQLite file (``SQLiteIntrospection``).
extension ForeignDatabase {
    /// Looks at the database at `path` and recovers its model, writing nothing (see
    /// `ForeignSnapshot` for how a `-wal` is read).
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - candidates: Models the user named (`--model`: one, or a bundle's versions); a Core
    ///     Data store (see `CoreDataStoreReader`) picks the one matching it, else reads its
    ///     `Z_MODELCACHE`, else its tables. A plain database ignores them.
    /// - Throws: ``StoreError`` when the file cannot be read as SQLite.
    public static func open(path: String, candidates: [ModelVersionHistory.Version] = []) throws -> ForeignDatabase {
        let snapshot = try ForeignSnapshot.make(path: path)
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: snapshot.uri, configuration: configuration)
            let found = try queue.read { db -> (kind: Kind, model: ManagedObjectModel, modelSource: String, warnings: [String], identifier: UUID?, source: ForeignSource) in
                if try CoreDataStoreReader.isCoreDataStore(db) {
                    let store = try CoreDataStoreReader.read(db, path: path, candidates: candidates)
                    return (.coreData, store.model, store.modelSource, store.warnings, store.storeIdentifier, store.source)
                }
                let schema = try SQLiteIntrospection.read(db, path: path)
                let ignored = candidates.isEmpty ? [] : ["\(path): --model is used for Core Data stores only; the model comes from the tables' schema"]
                return (.sqlite, schema.model, "the tables' schema", schema.warnings + ignored, nil, schema.source)
            }
            try queue.close()
            let auxiliary = found.source.setup.isEmpty ? nil : try ForeignAuxiliary.build(setup: found.source.setup, sourceURI: snapshot.uri)
            return ForeignDatabase(kind: found.kind, path: path, model: found.model, modelSource: found.modelSource,
                                   warnings: found.warnings, identifier: found.identifier ?? UUID(), source: found.source,
                                   snapshot: snapshot, auxiliary: auxiliary)
        } catch let error as StoreError {
            throw error
        } catch {
            throw SQLiteStore.storeError(error, path: path)
        }
    }
}
