import Foundation
import Quarry

/// A schema on the test server that is dropped when the last holder lets go of it: the
/// ``TestStore`` that made it and every ``TemporaryPostgreSQLStore`` opened on it, so a test may
/// drop its `TestStore` and keep using a context (as ``TemporaryJSONStore`` does for a folder).
public final class TemporaryPostgreSQLSchema: Sendable {
    /// The store's URL (its schema is this object's).
    public let url: PostgreSQLStoreURL

    /// Takes charge of the schema of `url` (nothing is made until a store opens on it).
    public init(url: PostgreSQLStoreURL) {
        self.url = url
    }

    deinit {
        // Every store on the schema is closed by now (each holds this object); a failed drop
        // leaves a `teststore_…` schema behind, which the throwaway server's removal clears.
        try? PostgreSQLStore.destroy(url: url)
    }
}

/// A `PostgreSQLStore` of a test that keeps its ``TemporaryPostgreSQLSchema`` alive while any
/// coordinator uses it, and closes its connections when released.
public final class TemporaryPostgreSQLStore: ForwardingStore, PersistentHistoryStore {
    /// The store.
    public let base: PostgreSQLStore
    /// The schema holding it.
    public let schema: TemporaryPostgreSQLSchema

    /// Opens a new store instance (its own connection pool) on `schema`, creating the store the
    /// first time.
    public init(schema: TemporaryPostgreSQLSchema, model: ManagedObjectModel) throws {
        self.base = try PostgreSQLStore(url: schema.url, model: model)
        self.schema = schema
    }

    deinit { base.close() }

    /// Whether the PostgreSQL store records history.
    public var recordsHistory: Bool { base.recordsHistory }
    /// The PostgreSQL store's newest history token.
    public func currentHistoryToken() throws -> HistoryToken? { try base.currentHistoryToken() }
    /// The PostgreSQL store's history after `token`.
    public func history(after token: HistoryToken?, limit: Int?) throws -> HistoryFetchResult { try base.history(after: token, limit: limit) }
    /// Prunes the PostgreSQL store's history before `token`.
    public func deleteHistory(before token: HistoryToken) throws -> Int { try base.deleteHistory(before: token) }
    /// Prunes the PostgreSQL store's history before `date`.
    public func deleteHistory(before date: Date) throws -> Int { try base.deleteHistory(before: date) }
    /// The consumer token kept in the PostgreSQL store.
    public func historyConsumerToken(_ consumer: String) throws -> HistoryToken? { try base.historyConsumerToken(consumer) }
    /// Keeps a consumer token in the PostgreSQL store.
    public func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {
        try base.setHistoryConsumerToken(token, consumer: consumer)
    }
}

extension TemporaryPostgreSQLStore: QueryGenerationStore {
    /// The PostgreSQL store's pinned generation (see ``PostgreSQLStore/pinnedGeneration()``).
    public func pinnedGeneration() throws -> any PersistentStore { try base.pinnedGeneration() }
}
