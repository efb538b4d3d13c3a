#if PostgreSQL
// TEMP stub (branch pg-live): the public API of the real PostgreSQLStore (branch pg-store), so
// the stack, the listener and the commands compile and run before it lands. The data lives in a
// JSON store folder per URL (shared by every instance in a process, so two stacks see one
// store), history in memory; every save NOTIFYs the real server's channel like the real store.
// The integrator drops this file (its own commit) when merging the real store.
import Foundation
import PostgresNIO
import Synchronization

/// A PostgreSQL store (TEMPORARY stand-in with the real store's public API).
public final class PostgreSQLStore: PersistentHistoryStore {
    /// How the store is opened.
    public struct Options: Sendable {
        /// Refuse every save.
        public var readOnly = false
        /// Whether saves record persistent history.
        public var recordsHistory = true
        /// The origin written with this store's history transactions (`nil`: a new UUID).
        public var historyOrigin: UUID? = nil
        /// The most connections open at once.
        public var maximumConnections = 4

        /// Options.
        public init(readOnly: Bool = false, recordsHistory: Bool = true, historyOrigin: UUID? = nil, maximumConnections: Int = 4) {
            self.readOnly = readOnly
            self.recordsHistory = recordsHistory
            self.historyOrigin = historyOrigin
            self.maximumConnections = maximumConnections
        }
    }

    /// The store's URL.
    public let storeURL: PostgreSQLStoreURL
    /// The origin of this store's history transactions.
    public let historyOrigin: UUID
    /// The channel every save notifies.
    public var notificationChannel: String { "quarry_\(storeURL.schema)" }
    /// The store's identifier.
    public var identifier: UUID { backend.store.identifier }
    /// The model.
    public var model: ManagedObjectModel { backend.store.model }
    /// The URL (never the password).
    public var url: URL? { URL(string: storeURL.description) }
    /// Whether saves are refused.
    public let isReadOnly: Bool
    /// Whether saves record history.
    public let recordsHistory: Bool
    /// When the last save committed.
    @_spi(Benchmarks) public var lastCommitUptime: UInt64 { lastCommit.load(ordering: .relaxed) }

    private let backend: Backend
    private let pool: PostgreSQLConnectionPool
    private let lastCommit = Atomic<UInt64>(0)

    /// Opens (or creates, given a model) the store at `url`.
    public init(url: PostgreSQLStoreURL, model: ManagedObjectModel?, options: Options = .init()) throws {
        storeURL = url
        pool = try PostgreSQLConnectionPool(url: url, maximumConnections: options.maximumConnections)
        backend = try Backend.open(url, model: model)
        historyOrigin = options.historyOrigin ?? UUID()
        isReadOnly = options.readOnly
        recordsHistory = options.recordsHistory
    }

    /// Drops the store.
    public static func destroy(url: PostgreSQLStoreURL) throws {
        Backend.registry.withLock { _ = $0.removeValue(forKey: url.description) }
        try? FileManager.default.removeItem(at: Backend.folder(url))
        try? FileManager.default.removeItem(at: Backend.folder(url).appendingPathExtension("history"))
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("DROP SCHEMA IF EXISTS \(PostgreSQLSQL.identifier(url.schema)) CASCADE") }
    }

    /// Whether a store is at `url`.
    public static func storeExists(url: PostgreSQLStoreURL) throws -> Bool {
        FileManager.default.fileExists(atPath: Backend.folder(url).appendingPathComponent(JSONStoreFolder.metadataName).path)
    }

    /// Closes the store's connections.
    public func close() { pool.close() }

    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try backend.store.snapshots(for: ids) }
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] { try backend.store.relatedIDs(of: id, relationship: relationship) }
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try backend.store.objectIDs(for: request) }
    public func count(for request: StoreQuery) throws -> Int { try backend.store.count(for: request) }
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        try backend.store.keyedIDs(for: request, keyPaths: keyPaths)
    }

    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        if isReadOnly { throw StoreError.readOnly(path: storeURL.description) }
        var result = try backend.save(changes, resolve: resolve, origin: historyOrigin, records: recordsHistory)
        lastCommit.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        if let token = result.historyToken {
            var binds = PostgresBindings()
            binds.append(notificationChannel)
            binds.append("\(token.value):\(historyOrigin.uuidString)")
            try pool.withConnection { _ = try $0.query("SELECT pg_notify($1, $2)", binds) }
        }
        if !recordsHistory { result.historyToken = nil }
        return result
    }

    public func currentHistoryToken() throws -> HistoryToken? { backend.state.withLock { $0.history.last?.token } }

    public func history(after token: HistoryToken?, limit: Int?) throws -> HistoryFetchResult {
        backend.state.withLock { s in
            let expired = token.map { $0.value + 1 < s.prunedBefore } ?? false
            var found = s.history.filter { token == nil || $0.token > token! }
            var more = false
            if let limit, found.count > limit { found = Array(found.prefix(limit)); more = true }
            return HistoryFetchResult(transactions: found, isExpired: expired, hasMore: more)
        }
    }

    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        backend.state.withLock { s in
            let count = s.history.count { $0.token < token }
            s.history.removeAll { $0.token < token }
            s.prunedBefore = max(s.prunedBefore, token.value)
            backend.persist(s)
            return count
        }
    }

    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        let last = backend.state.withLock { s in s.history.last { $0.timestamp < date }?.token }
        guard let last else { return 0 }
        return try deleteHistory(before: HistoryToken(last.value + 1))
    }

    /// One URL's data, shared by every instance in the process.
    private final class Backend: Sendable {
        struct State {
            var history: [HistoryTransaction] = []
            var nextToken: Int64 = 1
            var prunedBefore: Int64 = 0
        }
        static let registry = Mutex<[String: Backend]>([:])
        let store: JSONStore
        let state = Mutex(State())

        let historyFile: URL

        init(store: JSONStore, historyFile: URL) {
            self.store = store
            self.historyFile = historyFile
            // Another process's saves (a command run before this one) left their history here.
            if let data = try? Data(contentsOf: historyFile), let saved = try? JSONDecoder().decode(SavedHistory.self, from: data) {
                state.withLock { s in
                    s.history = saved.transactions.map(\.transaction)
                    s.nextToken = saved.nextToken
                    s.prunedBefore = saved.prunedBefore
                }
            }
        }

        func persist(_ s: State) {
            let saved = SavedHistory(transactions: s.history.map(SavedTransaction.init), nextToken: s.nextToken, prunedBefore: s.prunedBefore)
            try? JSONEncoder().encode(saved).write(to: historyFile, options: .atomic)
        }

        struct SavedHistory: Codable {
            var transactions: [SavedTransaction]
            var nextToken: Int64
            var prunedBefore: Int64
        }

        struct SavedTransaction: Codable {
            var token: Int64, timestamp: Date, author: String?, origin: UUID, processID: Int32
            var changes: [SavedChange]
            init(_ t: HistoryTransaction) {
                (token, timestamp, author, origin, processID) = (t.token.value, t.timestamp, t.author, t.origin, t.processID)
                changes = t.changes.map { SavedChange(entity: Int($0.objectID.entityIndex), key: $0.objectID.primaryKey, type: $0.type, keys: $0.changedKeys) }
            }
            var transaction: HistoryTransaction {
                HistoryTransaction(token: HistoryToken(token), timestamp: timestamp, author: author, origin: origin, processID: processID,
                                   changes: changes.map { HistoryChange(objectID: ObjectID(entityIndex: $0.entity, primaryKey: $0.key), type: $0.type, changedKeys: $0.keys) })
            }
        }

        struct SavedChange: Codable {
            var entity: Int, key: Int64, type: HistoryChangeType, keys: [String]
        }

        static func folder(_ url: PostgreSQLStoreURL) -> URL {
            let name = "\(url.host)_\(url.port)_\(url.database)_\(url.schema)".replacingOccurrences(of: "/", with: "_")
            return FileManager.default.temporaryDirectory.appendingPathComponent("quarry-postgresql-stub").appendingPathComponent(name + ".jsonstore")
        }

        static func open(_ url: PostgreSQLStoreURL, model: ManagedObjectModel?) throws -> Backend {
            try registry.withLock { r in
                if let backend = r[url.description] {
                    if let model, model.versionHash != backend.store.model.versionHash {
                        throw StoreError.modelMismatch(path: url.description, entities: [])
                    }
                    return backend
                }
                let folder = folder(url)
                try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
                if model == nil, !FileManager.default.fileExists(atPath: folder.path) {
                    throw StoreError.missingMetadata(path: url.description)
                }
                let backend = Backend(store: try JSONStore(url: folder, model: model), historyFile: folder.appendingPathExtension("history"))
                r[url.description] = backend
                return backend
            }
        }

        func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution, origin: UUID, records: Bool) throws -> StoreSaveResult {
            try state.withLock { s in
                var result = try store.save(changes, resolve: resolve)
                guard records else { return result }
                var recorded: [HistoryChange] = result.changes.inserted.map { HistoryChange(objectID: $0, type: .insert) }
                recorded += result.changes.updated.map { HistoryChange(objectID: $0, type: .update, changedKeys: (result.changes.changedKeys[$0] ?? []).sorted()) }
                recorded += result.changes.deleted.map { HistoryChange(objectID: $0, type: .delete) }
                let token = HistoryToken(s.nextToken)
                s.nextToken += 1
                s.history.append(HistoryTransaction(token: token, timestamp: Date(), author: changes.author, origin: origin,
                                                    processID: ProcessInfo.processInfo.processIdentifier, changes: recorded))
                result.historyToken = token
                persist(s)
                return result
            }
        }
    }
}
#endif
