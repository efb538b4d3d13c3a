import Foundation
import GRDB

extension SQLiteStore {
    /// The store's committed state: `<store UUID> <save count> <save UUID>`.
    ///
    /// Every save transaction rewrites the `Z_METADATA` row `saveToken` (the count of saves and
    /// a fresh random UUID) together with its changes, so the token changes with every commit
    /// from any process or connection, and two copies of a file that diverged never share one.
    /// A store never saved answers `<store UUID> 0`. Writes that bypass ``save(_:resolve:)``
    /// (raw SQL on the file) are not seen. A foreign database has no token (`nil`): nothing
    /// records its commits.
    public func modificationToken() throws -> String? {
        guard viewed == nil else { return nil }
        do {
            let saved = try pool.read { db in
                try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.saveToken])
            }
            return "\(identifier.uuidString) \(saved ?? "0")"
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Advances the save token inside a save transaction (see ``modificationToken()``).
    static func bumpModificationToken(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO Z_METADATA (key, value) VALUES (?1, '1 ' || ?2)
            ON CONFLICT(key) DO UPDATE SET value = (CAST(value AS INTEGER) + 1) || ' ' || ?2
            """)
        try statement.execute(arguments: [MetadataKey.saveToken, UUID().uuidString])
        try LogOwnershipMark.advance(db)
    }
}
