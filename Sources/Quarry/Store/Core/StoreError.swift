/// Why a store could not be opened, read or written. Every case names the file.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// Another connection holds the write lock and did not release it in time.
    case locked(path: String)
    /// The store was made with a different model; `entities` lists each entity that differs.
    case modelMismatch(path: String, entities: [String])
    /// The store is an SQLite file with no tables and no Quarry metadata, and no model was given
    /// to create the store with.
    case missingMetadata(path: String)
    /// The file is an SQLite database with tables of its own but no Quarry metadata: Quarry
    /// leaves it alone (even when a model was given).
    case notAQuarryStore(path: String)
    /// The write-ahead log beside the file (`<path>-wal`, with no `-shm`) does not belong to it:
    /// the file alone is a Quarry store, the file with the log is not. Opening would replay the
    /// log into the store, so Quarry leaves both alone.
    case foreignLog(path: String)
    /// The write-ahead log beside the file cannot have been written for it as it is (`reason`
    /// says why: another store's log, or a file restored from a copy beside its newer log; see
    /// `SQLiteStore/checkLogOwnership(path:fileHeader:)`). Opening would replay the log's
    /// pages over the file's, so Quarry leaves both alone.
    case mismatchedLog(path: String, reason: String)
    /// The path names something a store cannot be (`kind`: a FIFO, a device, a socket; see
    /// ``FileKind``): it is never opened, so nothing blocks on it or writes to it.
    case notAFile(path: String, kind: String)
    /// The store's metadata could not be read.
    case corruptMetadata(path: String, reason: String)
    /// The file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// A uniqueness constraint was violated by the save.
    case uniquenessViolation(entity: String, keys: [String])
    /// SQLite reported an error.
    case sqlite(path: String, code: Int32, message: String)
    /// The store was opened read-only.
    case readOnly(path: String)
    /// PostgreSQL reported an error (`store`: the store URL without its password; `sqlState`:
    /// the server's five-character code, empty when the connection failed before one was sent).
    case postgreSQL(store: String, sqlState: String, message: String)

    public var description: String {
        switch self {
        case .notADatabase(let p): return "\(p): file is not an SQLite database"
        case .locked(let p): return "\(p): store is locked by another writer"
        case .modelMismatch(let p, let e):
            return "\(p): store was made with a different model; entities that differ: \(e.joined(separator: ", "))"
        case .missingMetadata(let p): return "\(p): not a Quarry store (no metadata table) and no model was given"
        case .notAQuarryStore(let p): return "\(p): not a Quarry store (tables of its own and no Z_METADATA); left untouched"
        case .foreignLog(let p):
            return "\(p): the write-ahead log \(p)-wal beside it belongs to another database (with it, the file is no longer this Quarry store); both left untouched: move the -wal away to open the store as last checkpointed"
        case .mismatchedLog(let p, let why):
            return "\(p): the write-ahead log \(p)-wal beside it does not belong to it (\(why)); both left untouched: move the -wal away to open the store as last checkpointed"
        case .notAFile(let p, let kind):
            return "\(p): is \(kind), not a store file; Quarry opens only regular files (and folders, for JSON stores); left untouched"
        case .corruptMetadata(let p, let why): return "\(p): store metadata unreadable: \(why)"
        case .cannotOpen(let p, let why): return "\(p): cannot open store: \(why)"
        case .uniquenessViolation(let e, let k): return "uniqueness constraint on \(e)(\(k.joined(separator: ", "))) violated"
        case .sqlite(let p, let code, let m): return "\(p): SQLite error \(code): \(m)"
        case .readOnly(let p): return "\(p): store is read-only"
        case .postgreSQL(let store, let state, let m):
            return state.isEmpty ? "\(store): PostgreSQL: \(m)" : "\(store): PostgreSQL error \(state): \(m)"
        }
    }
}
