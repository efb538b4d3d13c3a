import Foundation

/// What `stat` says of a store file and the `-wal` and `-shm` beside it: two equal states taken
/// around a look at the store mean no connection wrote, truncated, created or deleted them
/// meanwhile (SQLite writes the file and the log with `write`, which moves their times).
struct StoreFileState: Equatable, Sendable {
    /// One file's identity, size and last modification.
    struct Entry: Equatable, Sendable {
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int

        /// What `stat` says of the file at `path` now; `nil` when it does not exist.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = info.st_mtim.tv_sec
            modifiedNanoseconds = info.st_mtim.tv_nsec
        }
    }

    /// The store file (`nil` when absent).
    var file: Entry?
    /// Its write-ahead log.
    var log: Entry?
    /// Its shared-memory index.
    var sharedMemory: Entry?

    /// The state of the store file at `path` and its companions now.
    init(path: String) {
        file = Entry(path: path)
        log = Entry(path: path + "-wal")
        sharedMemory = Entry(path: path + "-shm")
    }
}
