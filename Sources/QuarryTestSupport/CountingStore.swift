import Foundation
import Quarry

/// An in-memory store that counts what contexts and controllers ask of it: keyed fetches,
/// streamed keyed rows, and snapshot reads (and the objects they read).
public final class CountingStore: ForwardingStore, @unchecked Sendable {
    // The counters are written on the one context queue of each test that uses the store.
    /// The wrapped in-memory store.
    public let base: InMemoryStore
    /// Keyed fetches (``PersistentStore/keyedIDs(for:keyPaths:)``).
    public var keyed = 0
    /// Rows streamed by ``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``.
    public var streamed = 0
    /// Snapshot reads (``PersistentStore/snapshots(for:)``).
    public var snapshotReads = 0
    /// Objects asked for by the snapshot reads.
    public var objectsRead = 0

    /// Counts what is asked of `base`.
    public init(base: InMemoryStore) { self.base = base }

    /// The wrapped store's keyed fetch, counted.
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        keyed += 1
        return try base.keyedIDs(for: request, keyPaths: keyPaths)
    }

    /// The wrapped store's keyed rows, each counted.
    public func forEachKeyedRow(for request: StoreQuery, keyPaths: [String], _ body: (any KeyedRow) throws -> Void) throws {
        try base.forEachKeyedRow(for: request, keyPaths: keyPaths) { row in
            streamed += 1
            try body(row)
        }
    }

    /// The wrapped store's snapshots, the read and its objects counted.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        snapshotReads += 1
        objectsRead += ids.count
        return try base.snapshots(for: ids)
    }
}
