import Foundation
import GRDB

/// What SQLite opens to read a foreign database without ever writing it or its `-wal`/`-shm`.
///
/// - No `-wal` beside the file, or an empty one: everything is in the file, which is opened
///   `immutable=1` (no locks taken, no `-wal`/`-shm` created).
/// - A `-wal` with frames: rows may live only in the log (a Core Data store copied from a
///   device while in use). The file and its log are copied to a private temporary folder, the
///   copy's log is folded into the copy there (`journal_mode=DELETE`), and the copy is opened
///   `immutable=1`. The originals are only read (copied), never opened by SQLite, so nothing
///   replays, checkpoints or deletes their log, and their `-shm` is never touched. The copy
///   is removed when the last store reading it is released.
final class ForeignSnapshot: Sendable {
    /// The `file:` URI every connection opens.
    let uri: String
    /// The private folder holding the copy, or `nil` when the file is read in place.
    let copyFolder: URL?

    private init(uri: String, copyFolder: URL?) {
        self.uri = uri
        self.copyFolder = copyFolder
    }

    deinit {
        // Best-effort clean-up of a temporary copy: at worst it stays in the temporary directory.
        if let copyFolder { try? FileManager.default.removeItem(at: copyFolder) }
    }

    /// The snapshot to read `path` through.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the log cannot be copied or folded,
    ///   ``StoreError/mismatchedLog(path:reason:)`` when it cannot belong to the file.
    static func make(path: String) throws -> ForeignSnapshot {
        let log = path + "-wal"
        let logSize = FileKind(path: log).size ?? 0
        guard logSize > 0 else {
            return ForeignSnapshot(uri: SQLiteStore.fileURI(path) + "?immutable=1", copyFolder: nil)
        }
        // A log of pages of another size is another database's: folding it in would read a mix.
        try SQLiteStore.checkLogOwnership(path: path, fileHeader: SQLiteStore.fileHeaderFields(path: path))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-snapshot-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let copy = folder.appendingPathComponent("database").path
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: log, toPath: copy + "-wal")
            // Our own copy: replaying its log into it is what makes it readable without one.
            let queue = try DatabaseQueue(path: copy)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try queue.close()
            return ForeignSnapshot(uri: SQLiteStore.fileURI(copy) + "?immutable=1", copyFolder: folder)
        } catch {
            // Clean-up of a half-made temporary copy; the error being thrown matters, not this.
            try? FileManager.default.removeItem(at: folder)
            throw StoreError.cannotOpen(path: path, reason: "cannot read its write-ahead log (\(path)-wal): \(error)")
        }
    }
}
