import Foundation
import GRDB

/// An SQLite database Quarry did not make, read as it is: a plain SQLite file (its tables and
/// views as entities) or an Apple Core Data store (its real entity and property names).
///
/// ``open(path:candidates:)`` looks at the file without writing anything and recovers a model
/// and the `ForeignSource` that maps Quarry's layout onto the file's own tables; a store
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
}
