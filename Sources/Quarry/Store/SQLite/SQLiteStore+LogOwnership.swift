import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// How a Quarry store marks its file's first page so that a write-ahead log can be told
    /// apart from another file's: SQLite replays whatever `-wal` sits beside a file, and a log
    /// left from another store (or a store file restored from a backup beside its newer log)
    /// would mix two databases' pages into one and destroy the store at its next checkpoint.
    ///
    /// - `PRAGMA application_id` holds the store's **tag**: four bytes of its identifier, never
    ///   zero. Set when the store is made, or by the first save of a store made before marks.
    /// - `PRAGMA user_version` holds the store's **save count**, advanced by every save
    ///   (wrapping at 2³²). Writing it also puts page 1 into every save's frames, so every log a
    ///   Quarry save wrote carries the tag and count of the store it was written for.
    ///
    /// ``checkLogOwnership(path:fileHeader:)`` compares them with the file's own page 1.
    enum LogOwnershipMark {
        /// The tag of the store with `identifier` (its first four bytes; 1 if they are zero).
        static func tag(for identifier: UUID) -> UInt32 {
            let bytes = identifier.uuid
            let tag = UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
            return tag == 0 ? 1 : tag
        }

        /// Marks the store's tag (see ``tag(for:)``) on a new store, inside its creating transaction.
        static func mark(_ db: Database, identifier: UUID) throws {
            try db.execute(sql: "PRAGMA application_id = \(Int32(bitPattern: tag(for: identifier)))")
        }

        /// Advances the save count inside a save transaction, marking the tag first on a store
        /// made before marks existed.
        static func advance(_ db: Database) throws {
            if try Int.fetchOne(db, sql: "PRAGMA application_id") == 0,
               let identifier = try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.identifier])
                .flatMap(UUID.init(uuidString:)) {
                try mark(db, identifier: identifier)
            }
            let count = UInt32(truncatingIfNeeded: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)
            try db.execute(sql: "PRAGMA user_version = \(Int32(bitPattern: count &+ 1))")
        }
    }

    /// Throws ``StoreError/mismatchedLog(path:reason:)`` when the write-ahead log beside `path`
    /// cannot have been written for the file as it is:
    ///
    /// - its pages are not the file's page size (any SQLite file);
    /// - in a marked Quarry store (see ``LogOwnershipMark``): a committed frame of page 1
    ///   carries another store's tag (or none, after the log's first tagged frame or in a log
    ///   with no tagged frame), or its save counts do not continue the file's: a log
    ///   replays onto the file as it was when the log began, so the file's count must be the
    ///   one just before the log's first page 1 or one the log already reached (a checkpoint
    ///   copied part of it).
    ///
    /// A log SQLite would replay nothing from (absent, empty, a bad header, a header alone)
    /// passes.
    /// - Returns: Whether the log holds committed transactions (else the file alone is the store).
    /// - Parameter fileHeader: The file's own header fields, read without its log (`nil` when
    ///   the file is too short to have a header: a store whose first commit is still in the log).
    @discardableResult
    static func checkLogOwnership(path: String, fileHeader: DatabaseHeaderFields?) throws -> Bool {
        let log: WriteAheadLog?
        do {
            log = try WriteAheadLog.read(path: path + "-wal")
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot read the write-ahead log \(path)-wal beside it: \(error.localizedDescription)")
        }
        guard let log, log.committedFrames > 0 else { return false }
        guard let file = fileHeader else { return true }
        guard log.pageSize == file.pageSize else {
            throw StoreError.mismatchedLog(path: path, reason: "its pages are \(log.pageSize) bytes, the file's \(file.pageSize)")
        }
        let frames = log.firstPageFrames
        guard file.applicationID != 0, let last = frames.last else { return true }
        // A new store's first commits (GRDB's opening write among them) come before the one that
        // tags it: untagged frames before the first tagged one are its own. A log with no tagged
        // frame cannot have tagged the file, and a tag never goes back to none.
        let firstTagged = frames.firstIndex { $0.applicationID != 0 } ?? frames.startIndex
        if let other = frames[firstTagged...].first(where: { $0.applicationID != file.applicationID }) {
            throw StoreError.mismatchedLog(path: path, reason: "it was written for the store tagged \(hex(other.applicationID)), the file is the store tagged \(hex(file.applicationID))")
        }
        let first = frames[firstTagged]
        let span = last.userVersion &- first.userVersion
        guard file.userVersion &- (first.userVersion &- 1) <= span &+ 1 else {
            throw StoreError.mismatchedLog(path: path, reason: "it holds saves \(first.userVersion) to \(last.userVersion) of this store, the file is at save \(file.userVersion): the file was replaced (restored from a copy?) after the log was written")
        }
        return true
    }

    /// The header fields of the file at `path` alone (its log ignored), read through SQLite
    /// with `immutable=1` (no locks, nothing created), or `nil` for a file too short to have a
    /// header or one SQLite cannot read alone (the look itself then reports what is wrong).
    static func fileHeaderFields(path: String) -> DatabaseHeaderFields? {
        let size = Int(FileKind(path: path).size ?? 0)
        guard size >= 100 else { return nil }
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        let uri = fileURI(path) + "?immutable=1"
        guard sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else { return nil }
        func pragma(_ name: String) -> UInt32? {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(db, "PRAGMA \(name)", -1, &statement, nil) == SQLITE_OK,
                  sqlite3_step(statement) == SQLITE_ROW else { return nil }
            return UInt32(truncatingIfNeeded: sqlite3_column_int64(statement, 0))
        }
        // A file SQLite cannot read alone is left to the look itself to report.
        guard let pageSize = pragma("page_size"), let userVersion = pragma("user_version"),
              let applicationID = pragma("application_id") else { return nil }
        return DatabaseHeaderFields(pageSize: Int(pageSize), userVersion: userVersion, applicationID: applicationID)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
