import Foundation

extension SQLiteStore {
    /// Follows other connections' commits to this store's file (an ``SQLiteChangeFeed``) for a
    /// stack whose saves carry `origin`; `nil` for a store that reads its file as it was opened
    /// (nothing it reads can change).
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the file cannot be watched.
    func changeFeed(origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws -> (any ChangeFeed)? {
        guard let url, !readsFileAsOpened else { return nil }
        return try SQLiteChangeFeed(store: self, storeURL: url, origin: origin, deliver: deliver)
    }
}
