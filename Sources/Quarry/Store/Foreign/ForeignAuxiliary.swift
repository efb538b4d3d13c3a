import Foundation
import GRDB

/// Quarry's own private file of auxiliary tables for a foreign database (see
/// ``ForeignSource/setup``): built once when the database is opened, in a temporary folder,
/// then attached read-only as `aux` by every connection, so a view copied or a key numbered
/// once serves them all. Removed when the last store using it is released.
final class ForeignAuxiliary: Sendable {
    /// The `file:` URI connections attach (read-only, `immutable=1`).
    let uri: String
    /// The private folder holding the file.
    let folder: URL

    private init(uri: String, folder: URL) {
        self.uri = uri
        self.folder = folder
    }

    deinit {
        // Best-effort clean-up of a temporary folder: at worst it stays in the temporary directory.
        try? FileManager.default.removeItem(at: folder)
    }

    /// Builds the auxiliary file by running `setup` with the database (`sourceURI`, opened
    /// read-only) attached as `src`.
    /// - Throws: the SQLite error of the statement that failed (the folder is removed).
    static func build(setup: [String], sourceURI: String) throws -> ForeignAuxiliary {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-aux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let path = folder.appendingPathComponent("aux.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS src", arguments: [sourceURI.contains("?") ? sourceURI + "&mode=ro" : sourceURI + "?mode=ro"])
                try db.inTransaction {
                    for sql in setup { try db.execute(sql: sql) }
                    return .commit
                }
                try db.execute(sql: "DETACH DATABASE src")
            }
            try queue.close()
            return ForeignAuxiliary(uri: SQLiteStore.fileURI(path) + "?immutable=1", folder: folder)
        } catch {
            // Clean-up of a half-made temporary folder; the error being thrown matters, not this.
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }
}
