import Foundation

extension PostgreSQLStore {
    /// Follows every connection's commits to this store, from any host (a
    /// ``PostgreSQLChangeFeed``), for a stack whose saves carry `origin`.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` when the listening connection
    ///   cannot be made or the history cannot be read.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        try PostgreSQLChangeFeed(store: self, origin: origin, deliver: deliver)
    }
}
