import Foundation

extension PersistentStack.Options {
    /// The PostgreSQL store URL of these options (``storeURL``).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when none is given, it is not a
    ///   PostgreSQL URL, or a seed store is set (the password never shown).
    func postgreSQLStoreURL() throws -> PostgreSQLStoreURL {
        guard let url = storeURL else {
            throw StoreError.cannotOpen(path: "postgres://", reason: "a PostgreSQL stack needs its store's URL as storeURL (postgres://user@host:port/database?schema=name)")
        }
        let parsed = try PostgreSQLStoreURL(parsing: url.absoluteString)
        if seedStoreURL != nil {
            throw StoreError.cannotOpen(path: parsed.description, reason: "a seed store is a file: a PostgreSQL store cannot be seeded from one")
        }
        return parsed
    }
}

/// A stack's PostgreSQL back end: a schema on a server, opened once per coordinator (each
/// store instance with its own connection pool), both writing history with one origin, and
/// followed through `LISTEN` (``PostgreSQLChangeFeed``).
struct PostgreSQLBackEnd: StoreBackEnd {
    let main: PostgreSQLStore
    let writer: PostgreSQLStore

    /// Opens the store `options` name. The writer opens first, so it is the one that creates
    /// the schema of a new store.
    static func open(model: ManagedObjectModel, options: PersistentStack.Options) throws -> PostgreSQLBackEnd {
        let url = try options.postgreSQLStoreURL()
        let storeOptions = PostgreSQLStore.Options(readOnly: options.readOnly, recordsHistory: options.recordsPersistentHistory,
                                                   historyOrigin: options.historyOrigin ?? UUID())
        let writer = try PostgreSQLStore(url: url, model: model, options: storeOptions)
        do {
            return PostgreSQLBackEnd(main: try PostgreSQLStore(url: url, model: model, options: storeOptions), writer: writer)
        } catch {
            writer.close()
            throw error
        }
    }

    var historyOrigin: UUID? { writer.historyOrigin }

    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        try main.changeFeed(origin: origin, deliver: deliver)
    }

    /// Closes both stores and drops the store's schema.
    func destroy() throws {
        main.close()
        writer.close()
        try PostgreSQLStore.destroy(url: writer.storeURL)
    }
}
