import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// Deletes a store's files: the store, its `-wal` and its `-shm` (those absent are skipped).
    /// - Throws: the file system's error for a file that is there and cannot be deleted.
    static func removeFiles(at url: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            // `lstat`, not `fileExists`: a symbolic link is removed, not followed.
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            try FileManager.default.removeItem(atPath: path)
        }
    }
}
