import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

extension SQLiteStore {
    /// What a read-only look at an existing store file found.
    struct Peek: Sendable {
        /// The store's metadata (`nil`: no `Z_METADATA` table).
        var metadata: Metadata?
        /// Whether the file holds tables other than Quarry's metadata (a database Quarry did not make).
        var hasOtherTables: Bool
    }

    /// Looks at the file at `path` without writing anything: not the file, not its `-wal` or
    /// `-shm`, and creating neither. Quarry decides whether to open a store only from this look.
    ///
    /// - No `-wal` beside the file: it is fully checkpointed, so it is read alone with SQLite's
    ///   `immutable=1` (no locks, no WAL files created).
    /// - A `-wal` and a `-shm`: a store in use (or left by a crash); read with `mode=ro` and
    ///   `readonly_shm=1`, so the log is replayed in memory and `-shm` is never written.
    /// - A `-wal` without `-shm`: no connection has the file open in WAL mode, and the log may
    ///   belong to another database: the file and the log are copied to a temporary directory
    ///   and read there, so a foreign log is never checkpointed into the file.
    ///
    /// The file is only opened through SQLite (see ``poolPath(_:readOnly:)`` on descriptors and
    /// locks), except for the copy in the last case, when no WAL connection holds locks on it.
    ///
    /// Other connections may commit, checkpoint or close (deleting `-shm` and `-wal`) during
    /// the look, and a look that meets them half way can fail where the next one would not.
    /// So a failure is only believed (and a log only blamed) when the files were the same
    /// before and after the look and SQLite's error is not one that passes (busy, locked,
    /// a log index being rebuilt); otherwise the look is taken again, with pauses of 1 ms
    /// doubling to 50 ms, until `busyTimeout` has passed.
    ///
    /// A look at files in the state of this process's last look at them (see ``recentLooks``)
    /// is not taken again: its answer is the same.
    static func peek(path: String, busyTimeout: TimeInterval = 5) throws -> Peek {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(busyTimeout, 0.05) * 1e9)
        var pause: useconds_t = 1_000
        while true {
            let before = StoreFileState(path: path)
            if let recent = recentLooks.withLock({ $0[path] }), recent.state == before { return recent.peek }
            do {
                let found = try inProcessOpening.withLock { _ in try peekOnce(path: path, busyTimeout: busyTimeout) }
                if StoreFileState(path: path) == before { recentLooks.withLock { $0[path] = (before, found) } }
                return found
            } catch {
                let believed = StoreFileState(path: path) == before && !passes(error)
                if believed || DispatchTime.now().uptimeNanoseconds >= deadline { throw error }
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// The last look at each path and the state of the files it saw (the same before and
    /// after it): the file, its `-wal` and `-shm` by inode, size and modification time, to the
    /// nanosecond. Any commit, checkpoint, replacement or deletion changes that state, so a
    /// look at files still in it would find the same. Opening a store takes several looks in a
    /// row (is the file a Quarry store, which model does it record, then one for each
    /// coordinator's store); beside a write-ahead log, each look replays the whole log in
    /// memory (its `-shm` is never written), which for a log of thousands of frames was most
    /// of the time `quarry browse` took to show its first screen.
    private static let recentLooks = Mutex<[String: (state: StoreFileState, peek: Peek)]>([:])

    /// Held while a look's connection is open, and while a store's pool opens its first
    /// connection (``init(url:model:options:)``). SQLite shares one shared-memory index per
    /// file among the connections of a process, opened as the first of them asked: a look's
    /// (`readonly_shm`) would make a store opened beside it in this process unable to write.
    static let inProcessOpening = Mutex(())

    /// `SQLITE_READONLY_RECOVERY`, `_CANTLOCK` and `_CANTINIT` (extended codes the C module
    /// does not export as constants: `SQLITE_READONLY | n << 8`).
    private static let (readOnlyRecovery, readOnlyCantLock, readOnlyCantInit) = (SQLITE_READONLY | 1 << 8, SQLITE_READONLY | 2 << 8, SQLITE_READONLY | 5 << 8)

    /// Whether `error` is one a look can meet because another connection is at work, and
    /// that a later look would not meet.
    private static func passes(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return false }
        switch error {
        case .locked:
            return true
        case .sqlite(_, let code, _):
            // SQLITE_PROTOCOL, and SQLITE_READONLY_RECOVERY / _CANTINIT / _CANTLOCK (the log
            // index is being rebuilt or not yet built by the connection that owns it).
            return code & 0xFF == SQLITE_PROTOCOL || [readOnlyRecovery, readOnlyCantLock, readOnlyCantInit].contains(code)
                || code & 0xFF == SQLITE_IOERR
        default:
            return false
        }
    }

    /// One look (see ``peek(path:busyTimeout:)``).
    private static func peekOnce(path: String, busyTimeout: TimeInterval) throws -> Peek {
        // A FIFO would block the open forever, a device would be read as a database.
        for companion in [path + "-wal", path + "-shm"] where ![.missing, .regularFile].contains(FileKind(path: companion).kind) {
            throw StoreError.notAFile(path: companion, kind: FileKind(path: companion).description)
        }
        try FileKind.requireStorePath(path, directories: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError.cannotOpen(path: path, reason: "is a directory, not a store file")
        }
        // A log with no committed transaction (a header alone, left by a process that ended
        // without closing, beside a stale -shm) adds nothing: the file alone is the store.
        let hasWAL = try FileManager.default.fileExists(atPath: path + "-wal")
            && checkLogOwnership(path: path, fileHeader: fileHeaderFields(path: path))
        let hasSHM = FileManager.default.fileExists(atPath: path + "-shm")
        if !hasWAL { return try peek(uri: fileURI(path) + "?immutable=1", reportedPath: path, busyTimeout: busyTimeout) }
        if hasSHM {
            return try peekWithLog(path: path, busyTimeout: busyTimeout) {
                try peek(uri: fileURI(path) + "?mode=ro&readonly_shm=1", reportedPath: path, busyTimeout: busyTimeout)
            }
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-peek-\(UUID().uuidString)")
        // Best-effort clean-up of a scratch copy.
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let copy = scratch.appendingPathComponent("store").path
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
            return try peekWithLog(path: path, busyTimeout: busyTimeout) {
                try peek(uri: fileURI(copy) + "?mode=ro", reportedPath: path, busyTimeout: busyTimeout)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot check the write-ahead log beside it: \(error.localizedDescription)")
        }
    }

    /// A look at the file with its log (`body`) that blames the log when the file alone is a
    /// Quarry store but the two together are not (or cannot be read).
    private static func peekWithLog(path: String, busyTimeout: TimeInterval, _ body: () throws -> Peek) throws -> Peek {
        let withLog: Peek
        do {
            withLog = try body()
        } catch {
            try refuseForeignLog(path: path, busyTimeout: busyTimeout)
            throw error
        }
        if withLog.metadata == nil { try refuseForeignLog(path: path, busyTimeout: busyTimeout) }
        return withLog
    }

    /// Throws ``StoreError/foreignLog(path:)`` when the file alone (its log ignored) is a
    /// Quarry store: then the log beside it, which made it look like something else, is at fault.
    private static func refuseForeignLog(path: String, busyTimeout: TimeInterval) throws {
        // Only decides which error to report: a file that cannot be peeked alone keeps the log's error.
        let alone = try? peek(uri: fileURI(path) + "?immutable=1", reportedPath: path, busyTimeout: busyTimeout)
        if alone?.metadata != nil { throw StoreError.foreignLog(path: path) }
    }

    /// `file:` URI of `path` with the characters URIs reserve escaped: every byte of its UTF-8
    /// but the path characters Foundation keeps (letters, digits, `-._~!$&'()*+,=:@/`) becomes `%XX`,
    /// as `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)` does. Written out
    /// because Foundation's character sets took half a millisecond of each launch on Linux.
    static func fileURI(_ path: String) -> String {
        var uri: [UInt8] = Array("file:".utf8)
        uri.reserveCapacity(5 + path.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            if Self.isURIPathByte(byte) {
                uri.append(byte)
            } else {
                uri.append(UInt8(ascii: "%"))
                uri.append(hex[Int(byte >> 4)])
                uri.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: uri, as: UTF8.self)
    }

    /// Whether `byte` stands for itself in a URI path (`urlPathAllowed`: RFC 3986's `pchar` and `/`, less `;`).
    private static func isURIPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,=:@/".utf8.contains(byte)
        }
    }

    /// Reads the table names and metadata through one read-only connection opened on `uri`.
    private static func peek(uri: String, reportedPath path: String, busyTimeout: TimeInterval) throws -> Peek {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        try check(sqlite3_open_v2(uri, &db, flags, nil), db, path: path)
        sqlite3_busy_timeout(db, Int32(min(busyTimeout * 1000, Double(Int32.max))))
        let tables = try rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", path: path)
            .map { $0[0] }
        guard tables.contains("Z_METADATA") else { return Peek(metadata: nil, hasOtherTables: !tables.isEmpty) }
        // Core Data's Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) is not Quarry's (key, value).
        let metadataColumns = Set(try rows(db, "SELECT name FROM pragma_table_info('Z_METADATA')", path: path).map { $0[0] })
        guard metadataColumns.isSuperset(of: ["key", "value"]) else { return Peek(metadata: nil, hasOtherTables: true) }
        var values: [String: String] = [:]
        for row in try rows(db, "SELECT key, value FROM Z_METADATA", path: path) { values[row[0]] = row[1] }
        return Peek(metadata: try StoreMetadata(values: values, path: path), hasOtherTables: true)
    }

    /// The text columns of every row `sql` returns.
    private static func rows(_ db: OpaquePointer?, _ sql: String, path: String) throws -> [[String]] {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), db, path: path)
        var result: [[String]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return result }
            guard rc == SQLITE_ROW else { try check(rc, db, path: path); return result }
            result.append((0..<sqlite3_column_count(statement)).map { i in
                sqlite3_column_text(statement, i).map { String(cString: $0) } ?? ""
            })
        }
    }

    /// Throws the ``StoreError`` for a failed SQLite call.
    private static func check(_ rc: Int32, _ db: OpaquePointer?, path: String) throws {
        guard rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE else { return }
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
        switch rc & 0xFF {
        case SQLITE_NOTADB: throw StoreError.notADatabase(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: throw StoreError.locked(path: path)
        case SQLITE_CANTOPEN: throw StoreError.cannotOpen(path: path, reason: message)
        default: throw StoreError.sqlite(path: path, code: rc, message: message)
        }
    }
}
