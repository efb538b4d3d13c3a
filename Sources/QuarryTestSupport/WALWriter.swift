import Foundation
import GRDB

/// A writer that leaves rows in a database's write-ahead log: what a store copied while its
/// app had it open looks like.
public enum WALWriter {
    /// Opens `url` in WAL mode with automatic checkpoints off, runs `checkpointed` and folds it
    /// into the file (`wal_checkpoint(TRUNCATE)`), then runs `inLog`, whose rows live only in
    /// the `-wal` while the returned writer stays open.
    public static func keepingRowsInLog(at url: URL, checkpointed: [String] = [], inLog: [String]) throws -> DatabaseQueue {
        let writer = try DatabaseQueue(path: url.path)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            for sql in checkpointed { try db.execute(sql: sql) }
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            for sql in inLog { try db.execute(sql: sql) }
        }
        return writer
    }
}
