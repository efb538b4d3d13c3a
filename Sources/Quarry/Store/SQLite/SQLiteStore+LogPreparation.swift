import Foundation

extension SQLiteStore {
    /// Gives an existing store whose `-wal` is missing or empty a log holding only a header,
    /// before GRDB's pool opens it for writing.
    ///
    /// GRDB makes sure a writable pool has a non-empty `-wal` (its readers fail to open
    /// without one) by committing a dummy transaction (`CREATE TABLE grdb_issue_102 …; DROP
    /// TABLE …`) whenever it finds none. Checkpointed at close, that transaction changed the
    /// file of a store the user only browsed: its schema version went up by two and it grew a
    /// free page. A log with a valid header and no frame is what SQLite itself writes when it
    /// restarts a log: it replays nothing, the first commit writes its own header over it, and
    /// the last connection to close removes it as usual.
    ///
    /// The file is only read here (its page size, through SQLite, never with a descriptor of
    /// our own: see ``poolPath(_:readOnly:)``); only the `-wal` is written, and SQLite keeps no
    /// locks on it. Called for Quarry stores only, which are always in WAL mode.
    static func prepareLogForWriting(path: String) throws {
        let log = path + "-wal"
        let size = FileKind(path: log).size
        guard size == nil || size == 0, let header = fileHeaderFields(path: path) else { return }
        let bytes = WALHeader.fresh(pageSize: header.pageSize)
        do {
            // Never over a log that another connection wrote meanwhile: only an empty one, or
            // a new one made here (`O_EXCL`), with the store file's permissions as SQLite does.
            if size == nil {
                let descriptor = open(log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, FileKind(path: path).permissions ?? 0o644)
                if descriptor < 0 {
                    if errno == EEXIST { return }
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
                }
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                try handle.write(contentsOf: bytes)
            } else {
                let handle = try FileHandle(forUpdating: URL(fileURLWithPath: log))
                // Closing a read-only handle: nothing to lose if it fails.
                defer { try? handle.close() }
                guard try handle.seekToEnd() == 0 else { return }
                try handle.write(contentsOf: bytes)
            }
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot prepare its write-ahead log \(log): \(error.localizedDescription)")
        }
    }
}
