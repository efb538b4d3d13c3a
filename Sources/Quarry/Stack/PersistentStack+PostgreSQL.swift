import Foundation

extension PersistentStack {
    /// The PostgreSQL store URL of `options` (``Options/storeURL``).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when none is given, it is not a
    ///   PostgreSQL URL, or this build has no PostgreSQL support (the password never shown).
    static func postgreSQLURL(_ options: Options) throws -> PostgreSQLStoreURL {
        guard let url = options.storeURL else {
            throw StoreError.cannotOpen(path: "postgres://", reason: "a PostgreSQL stack needs its store's URL as storeURL (postgres://user@host:port/database?schema=name)")
        }
        guard PostgreSQLSupport.isAvailable else { throw PostgreSQLSupport.unavailableError(url.absoluteString) }
        let parsed = try PostgreSQLStoreURL(parsing: url.absoluteString)
        if options.seedStoreURL != nil {
            throw StoreError.cannotOpen(path: parsed.description, reason: "a seed store is a file: a PostgreSQL store cannot be seeded from one")
        }
        return parsed
    }

    /// The main and writer coordinators of a PostgreSQL store: each its own store instance
    /// (connection pool), both writing history with one origin. The writer opens first, so it
    /// is the one that creates the schema of a new store.
    static func openPostgreSQLCoordinators(model: ManagedObjectModel, options: Options) throws -> (StoreCoordinator, StoreCoordinator) {
        let url = try postgreSQLURL(options)
        #if PostgreSQL
        let storeOptions = PostgreSQLStore.Options(readOnly: options.readOnly, recordsHistory: options.recordsPersistentHistory,
                                                   historyOrigin: options.historyOrigin ?? UUID())
        let writer = try PostgreSQLStore(url: url, model: model, options: storeOptions)
        let main: PostgreSQLStore
        do {
            main = try PostgreSQLStore(url: url, model: model, options: storeOptions)
        } catch {
            writer.close()
            throw error
        }
        return (StoreCoordinator(store: main, name: "main"), StoreCoordinator(store: writer, name: "writer"))
        #else
        throw PostgreSQLSupport.unavailableError(url.description)
        #endif
    }

    /// Closes the stack's PostgreSQL stores and drops the store's schema (``destroyAndSetUp()``).
    func destroyPostgreSQLStore(options: Options) throws {
        let url = try Self.postgreSQLURL(options)
        #if PostgreSQL
        let stores = state.withLock { [$0.mainCoordinator.store, $0.writerCoordinator.store] }
        for case let store as PostgreSQLStore in stores { store.close() }
        try PostgreSQLStore.destroy(url: url)
        #endif
    }
}
