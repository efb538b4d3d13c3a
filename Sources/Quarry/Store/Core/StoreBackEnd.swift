import Foundation

/// One back end's face to a ``PersistentStack``: the stores it opened for the stack, how it
/// destroys them, its change feed and its history origin. The stack holds one and never asks
/// which back end it is; `PersistentStack.Options.openBackEnd(model:)` is the one place a store
/// type picks its back end.
///
/// SQLite and PostgreSQL open a store instance per coordinator (each with its own connections);
/// the in-memory and JSON back ends share one instance between both (two JSON store instances
/// on one folder would each save over the other's state).
protocol StoreBackEnd: Sendable {
    /// The store type of both stores.
    associatedtype Store: PersistentStore
    /// The store the main context's coordinator reads.
    var main: Store { get }
    /// The store the writer coordinator saves to (importer contexts, the stack's saves).
    var writer: Store { get }
    /// The origin the stack's saves write with their history transactions (`nil`: a store
    /// that writes none).
    var historyOrigin: UUID? { get }

    /// Starts following other connections' commits to the store for a stack whose own saves
    /// carry `origin`: every ``RemoteCommit`` (and failure) goes to `deliver` on the feed's
    /// serial queue, in commit order. `nil` when the store cannot change behind the stack (in
    /// memory, JSON, a foreign database, a file read as it was opened).
    /// - Throws: ``StoreError`` when the store cannot be watched.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)?

    /// Deletes the store (files, folder or schema), closing what must be closed first; the
    /// stack opens a new back end afterwards.
    /// - Throws: ``StoreError`` (or the file system's error) when it cannot be deleted.
    func destroy() throws
}

extension StoreBackEnd {
    /// `nil`: the store writes no history.
    var historyOrigin: UUID? { nil }

    /// `nil`: nothing else writes the store.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? { nil }
}
