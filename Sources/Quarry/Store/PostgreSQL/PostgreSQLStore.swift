#if PostgreSQL
import Foundation
import Synchronization

// TEMP stub (pg-bench): the public API of the PostgreSQL store being written on pg-store, backed
// by one InMemoryStore per URL so tests and benches compile and run before it lands. The
// integrator drops this commit.

/// TEMP stub of the PostgreSQL store (one shared in-memory store per URL).
public final class PostgreSQLStore: PersistentHistoryStore {
    /// How the store is opened.
    public struct Options: Sendable {
        /// Refuse saves.
        public var readOnly = false
        /// Record history.
        public var recordsHistory = true
        /// The history origin.
        public var historyOrigin: UUID? = nil
        /// Connections at once.
        public var maximumConnections = 4
        /// Options.
        public init(readOnly: Bool = false, recordsHistory: Bool = true, historyOrigin: UUID? = nil, maximumConnections: Int = 4) {
            self.readOnly = readOnly
            self.recordsHistory = recordsHistory
            self.historyOrigin = historyOrigin
            self.maximumConnections = maximumConnections
        }
    }

    private static let stores = Mutex<[PostgreSQLStoreURL: InMemoryStore]>([:])
    private let base: InMemoryStore

    /// Opens (or creates) the store at `url`.
    public init(url: PostgreSQLStoreURL, model: ManagedObjectModel?, options: Options = .init()) throws {
        self.storeURL = url
        self.historyOrigin = options.historyOrigin ?? UUID()
        let found: InMemoryStore? = Self.stores.withLock { stores in
            if let store = stores[url] { return store }
            guard let model else { return nil }
            let store = InMemoryStore(model: model)
            stores[url] = store
            return store
        }
        guard let found else { throw StoreError.cannotOpen(path: url.description, reason: "no store (TEMP stub)") }
        self.base = found
    }

    /// The store's URL.
    public let storeURL: PostgreSQLStoreURL
    /// The history origin.
    public let historyOrigin: UUID
    /// The NOTIFY channel.
    public var notificationChannel: String { "quarry_\(storeURL.schema)" }
    /// Drops the store.
    public static func destroy(url: PostgreSQLStoreURL) throws { _ = stores.withLock { $0.removeValue(forKey: url) } }
    /// Whether the store exists.
    public static func storeExists(url: PostgreSQLStoreURL) throws -> Bool { stores.withLock { $0[url] != nil } }
    /// Closes the store.
    public func close() {}
    /// The last commit's uptime.
    @_spi(Benchmarks) public var lastCommitUptime: UInt64 { 0 }

    /// Identifier.
    public var identifier: UUID { base.identifier }
    /// Model.
    public var model: ManagedObjectModel { base.model }
    /// No file.
    public var url: URL? { nil }
    /// Read-only.
    public var isReadOnly: Bool { base.isReadOnly }
    /// Snapshots.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try base.snapshots(for: ids) }
    /// Related IDs.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] { try base.relatedIDs(of: id, relationship: relationship) }
    /// Fetch.
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try base.objectIDs(for: request) }
    /// Count.
    public func count(for request: StoreQuery) throws -> Int { try base.count(for: request) }
    /// Keyed fetch.
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        try base.keyedIDs(for: request, keyPaths: keyPaths)
    }
    /// Save.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        try base.save(changes, resolve: resolve)
    }
    /// Token.
    public func modificationToken() throws -> String? { try base.modificationToken() }
    /// No history in the stub.
    public var recordsHistory: Bool { false }
    /// No history in the stub.
    public func currentHistoryToken() throws -> HistoryToken? { nil }
    /// No history in the stub.
    public func history(after token: HistoryToken?, limit: Int?) throws -> HistoryFetchResult { HistoryFetchResult(transactions: []) }
    /// No history in the stub.
    public func deleteHistory(before token: HistoryToken) throws -> Int { 0 }
    /// No history in the stub.
    public func deleteHistory(before date: Date) throws -> Int { 0 }
}
#endif
