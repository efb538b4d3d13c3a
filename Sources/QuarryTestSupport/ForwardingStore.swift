import Foundation
import Quarry

/// A test's wrapper around a store that keeps something alive beside it (a temporary folder, a
/// schema): every ``PersistentStore`` requirement goes to ``base``.
public protocol ForwardingStore: PersistentStore {
    /// The store's type.
    associatedtype Base: PersistentStore
    /// The wrapped store.
    var base: Base { get }
}

extension ForwardingStore {
    /// The wrapped store's UUID.
    public var identifier: UUID { base.identifier }
    /// The wrapped store's model.
    public var model: ManagedObjectModel { base.model }
    /// The wrapped store's location.
    public var url: URL? { base.url }
    /// Whether the wrapped store refuses saves.
    public var isReadOnly: Bool { base.isReadOnly }
    /// Whether the wrapped store's queries stop when cancelled.
    public var cancelsQueries: Bool { base.cancelsQueries }
    /// The wrapped store's snapshots.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try base.snapshots(for: ids) }
    /// The wrapped store's to-many contents.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] { try base.relatedIDs(of: id, relationship: relationship) }
    /// The wrapped store's fetch.
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try base.objectIDs(for: request) }
    /// The wrapped store's count.
    public func count(for request: StoreQuery) throws -> Int { try base.count(for: request) }
    /// The wrapped store's keyed fetch.
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        try base.keyedIDs(for: request, keyPaths: keyPaths)
    }
    /// The wrapped store's keyed rows, streamed.
    public func forEachKeyedRow(for request: StoreQuery, keyPaths: [String], _ body: (any KeyedRow) throws -> Void) throws {
        try base.forEachKeyedRow(for: request, keyPaths: keyPaths, body)
    }
    /// The wrapped store's save.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        try base.save(changes, resolve: resolve)
    }
    /// The wrapped store's batch insert from a sequence.
    public func saveInserts(author: String, _ next: () throws -> [ObjectChange]?) throws -> StoreSaveResult {
        try base.saveInserts(author: author, next)
    }
    /// The wrapped store's modification token.
    public func modificationToken() throws -> String? { try base.modificationToken() }
}
