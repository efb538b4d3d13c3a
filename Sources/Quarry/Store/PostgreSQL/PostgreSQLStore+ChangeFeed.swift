import Foundation

extension PostgreSQLStore {
    /// Follows every connection's commits to this store, from any host (a
    /// ``PostgreSQLChangeFeed``), for a stack whose saves carry `origin`.
    /// For a schema Quarry did not make, logical replication of its tables
    /// (``PostgreSQLReplicationFeed``) when the server and role allow it
    /// (``PostgreSQLReplicationSetup``), else a feed that says once why it is not live.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` when the listening connection
    ///   cannot be made or the history cannot be read.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        if let foreign {
            switch PostgreSQLReplicationSetup.prepare(store: self, schema: foreign) {
            case .live(let publication):
                return try PostgreSQLReplicationFeed(store: self, schema: foreign, publication: publication, deliver: deliver)
            case .notLive(let reason):
                // Said at once: the stack hands it on to its main queue, after its own set-up.
                deliver(.failed(.notLive(store: storeURL.description, reason: reason), refetch: false))
                return NotLiveChangeFeed()
            }
        }
        return try PostgreSQLChangeFeed(store: self, origin: origin, deliver: deliver)
    }
}

/// The feed of a store whose other writers cannot be followed: it said so once, and has
/// nothing to stop.
struct NotLiveChangeFeed: ChangeFeed {
    func cancel() {}
}
