import Foundation
import GRDB

/// An SQLite database Quarry did not make, read as it is: a plain SQLite file (its tables and
/// views as entities) or an Apple Core Data store (its real entity and property names).
///
/// ``open(path:candidates:)`` looks at the file without writing anything and recovers a model
/// and the ``ForeignSource`` that maps Quarry's layout onto the file's own tables; a store
/// opened with ``SQLiteStore/init(foreign:busyTimeout:)`` then reads it through the same
/// queries, row reader and fetched-results paths as a Quarry store, always read-only.
///
/// ```swift
/// let database = try ForeignDatabase.open(path: "Chinook.sqlite")
/// let store = try SQLiteStore(foreign: database)
/// print(database.kind, database.model.entities.map(\.name), database.warnings)
/// ```
public struct ForeignDatabase: Sendable {
    /// What made the database.
    public enum Kind: String, Sendable {
        /// Any SQLite database: the model is introspected from its schema.
        case sqlite = "SQLite database"
        /// An Apple Core Data store (`Z_PRIMARYKEY` and `Z_METADATA`).
        case coreData = "Core Data store"
    }

    /// What made the database.
    public let kind: Kind
    /// The database file.
    public let path: String
    /// The recovered model (names as the database has them).
    public let model: ManagedObjectModel
    /// Where the model came from, in words (`"the tables' schema"`, `"the store's Z_MODELCACHE"`).
    public let modelSource: String
    /// What was skipped or guessed on the way, each naming the table, column or key at fault.
    public let warnings: [String]
    /// The store's UUID (Core Data's `NSStoreUUID`; a fresh one for a plain database).
    public let identifier: UUID
    let source: ForeignSource
    let snapshot: ForeignSnapshot
    /// The auxiliary tables every connection attaches as `aux`, when the source needs any.
    let auxiliary: ForeignAuxiliary?

    /// Whether the file at `path` is an SQLite database with tables and no Quarry metadata
    /// (looked at without writing anything; see ``SQLiteStore``'s peek).
    /// - Throws: ``StoreError`` for a directory or a file that is not SQLite.
    public static func isForeign(path: String) throws -> Bool {
        let found = try SQLiteStore.peek(path: path)
        return found.metadata == nil && found.hasOtherTables
    }

    /// Looks at the database at `path` and recovers its model, writing nothing (see
    /// ``ForeignSnapshot`` for how a `-wal` is read).
    ///
    /// - Parameter candidates: Models the user named (`--model`: one, or a bundle's versions);
    ///   a Core Data store (see ``CoreDataStoreReader``) picks the one matching it, else reads
    ///   its `Z_MODELCACHE`, else its tables. A plain database ignores them.
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
