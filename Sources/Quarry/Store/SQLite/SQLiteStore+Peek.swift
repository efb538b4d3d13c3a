import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// What a read-only look at an existing store file found.
    struct Peek {
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
    static func peek(path: String, busyTimeout: TimeInterval = 5) throws -> Peek {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw StoreError.cannotOpen(path: path, reason: "is a directory, not a store file")
        }
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        let hasSHM = FileManager.default.fileExists(atPath: path + "-shm")
        if !hasWAL { return try peek(uri: fileURI(path) + "?immutable=1", reportedPath: path, busyTimeout: busyTimeout) }
        if hasSHM {
            return try peekWithLog(path: path, busyTimeout: busyTimeout) {
                try peek(uri: fileURI(path) + "?mode=ro&readonly_shm=1", reportedPath: path, busyTimeout: busyTimeout)
            }
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-peek-\(UUID().uuidString)")
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
        let alone = try? peek(uri: fileURI(path) + "?immutable=1", reportedPath: path, busyTimeout: busyTimeout)
        if alone?.metadata != nil { throw StoreError.foreignLog(path: path) }
    }

    /// `file:` URI of `path` with the characters URIs reserve escaped.
    static func fileURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
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
        return Peek(metadata: try metadata(from: values, path: path), hasOtherTables: true)
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
