import Foundation

extension PostgreSQLStore {
    /// Follows every connection's commits to this store, from any host (a
    /// ``PostgreSQLChangeFeed``), for a stack whose saves carry `origin`.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` when the listening connection
    ///   cannot be made or the history cannot be read.
    /// `nil` for a schema Quarry did not make: it has no history to follow.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        guard foreign == nil else { return nil }
        return try PostgreSQLChangeFeed(store: self, origin: origin, deliver: deliver)
    }
}
