import Foundation

/// What ``CoreDataStoreReader`` recovers from an Apple Core Data SQLite store: the model to
/// browse it with, where each of that model's layout tables and columns comes from in the file,
/// and what was skipped on the way.
struct CoreDataStoreDescription: Sendable {
    /// The model, with Core Data's entity and property names (plus the read-only history
    /// entities when the store tracks persistent history).
    var model: ManagedObjectModel
    /// The expressions presenting the store's `Z` tables in Quarry's layout of ``model``.
    var source: ForeignSource
    /// Where the model came from, for the user: "the store's Z_MODELCACHE", "version 'X' of
    /// --model (…)", "the store's tables".
    var modelSource: String
    /// Everything skipped or guessed, each naming what and why, and the fallback used.
    var warnings: [String]
    /// The store's `NSStoreUUID` (or `Z_UUID`), when readable.
    var storeIdentifier: UUID?
    /// The names given to the persistent-history entities (`nil` when the store has no history).
    var historyEntityNames: CoreDataHistory.Names?
}
