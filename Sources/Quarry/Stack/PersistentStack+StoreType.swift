import Foundation

extension PersistentStack {
    /// Which store a stack opens (RBCoreDataAdditions' configurable store type, M3's manager).
    public enum StoreType: String, Sendable, CaseIterable {
        /// ``SQLiteStore``: a file; the main and writer coordinators each get their own connections.
        case sqlite
        /// ``JSONStore``: a folder of JSON files, loaded whole; both coordinators share the instance.
        case json
        /// ``InMemoryStore``: nothing on disk; both coordinators share the instance.
        case inMemory
        /// `PostgreSQLStore`: a schema on a PostgreSQL server, named by a `postgres://` URL as
        /// ``Options/storeURL`` (see ``PostgreSQLStoreURL``); the main and writer coordinators
        /// each get their own store instance (and connections).
        case postgreSQL

        /// The type a store URL implies: `.postgreSQL` for a `postgres://` or `postgresql://`
        /// URL, else `self` (so a stack given such a URL opens PostgreSQL without being told).
        func resolved(for url: URL?) -> StoreType {
            guard let url, PostgreSQLStoreURL.isStoreURL(url.absoluteString) else { return self }
            return .postgreSQL
        }
    }
}
