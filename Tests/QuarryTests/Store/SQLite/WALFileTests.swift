import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A write-ahead log written by SQLite itself: a connection that keeps it (no automatic
/// checkpoint) and commits transactions of many frames each, so a scan crosses its 64 KiB reads.
private final class GrowingLog {
    let directory = TemporaryDirectory()
    let queue: DatabaseQueue
    var path: String { directory.file("log.sqlite").path }
    var walPath: String { path + "-wal" }
    static let frameSize = 24 + 4096

    init() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        queue = try DatabaseQueue(path: directory.file("log.sqlite").path, configuration: configuration)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)") }
    }

    /// Commits `rows` rows of 3 KB each (a frame or so each), advancing the save count when `marked`.
    func commit(rows: Int, marked: Bool = false) throws {
        try queue.write { db in
            for _ in 0..<rows { try db.execute(sql: "INSERT INTO t (payload) VALUES (randomblob(3000))") }
            if marked {
                let count = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                try db.execute(sql: "PRAGMA user_version = \(count + 1)")
            }
        }
    }

    /// The frames in the log now (every one committed: SQLite appends whole transactions).
    func frames() throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as! Int
        return (size - WALHeader.size) / Self.frameSize
    }
}

@Suite("Write-ahead log scans: read in large chunks, as SQLite's recovery reads the log")
struct WALFileTests {
    @Test("every committed frame is counted across many 64 KiB reads, and page 1's save counts in log order")
    func countsEveryFrame() throws {
        let log = try GrowingLog()
        try log.commit(rows: 40, marked: true)
        try log.commit(rows: 25, marked: true)
        try log.commit(rows: 60)
        let read = try #require(try WriteAheadLog.read(path: log.walPath))
        #expect(read.committedFrames == (try log.frames()))
        #expect(read.committedFrames > 100, "the transactions span many of the scan's reads")
        // The third transaction grows the file, so it writes page 1 too, without a new count.
        #expect(read.firstPageFrames.map(\.userVersion).suffix(3) == [1, 2, 2])
    }

    @Test("a damaged frame ends the log at the commit before it, as SQLite would replay it")
    func damagedFrameEndsTheLog() throws {
        let log = try GrowingLog()
        try log.commit(rows: 30)
        let before = try log.frames()
        try log.commit(rows: 30)
        let handle = try #require(FileHandle(forUpdatingAtPath: log.walPath))
        // A byte of the page in the second transaction's fifth frame.
        try handle.seek(toOffset: UInt64(WALHeader.size + (before + 4) * GrowingLog.frameSize + 24 + 100))
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(WALHeader.size + (before + 4) * GrowingLog.frameSize + 24 + 100))
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()
        #expect(try WriteAheadLog.read(path: log.walPath)?.committedFrames == before)
    }

    @Test("a log that is absent reads as none; one cut inside a frame keeps the commits before the cut")
    func absentAndCutLogs() throws {
        #expect(try WriteAheadLog.read(path: "/nonexistent-\(UUID().uuidString)-wal") == nil)
        let log = try GrowingLog()
        try log.commit(rows: 20)
        let first = try log.frames()
        try log.commit(rows: 20)
        let cut = WALHeader.size + (first + 3) * GrowingLog.frameSize + 1000
        #expect(truncate(log.walPath, off_t(cut)) == 0)
        #expect(try WriteAheadLog.read(path: log.walPath)?.committedFrames == first)
    }

    @Test("the cursor counts each transaction since its last call, telling saves that advanced the count from others")
    func cursorCountsTransactions() throws {
        let log = try GrowingLog()
        try log.commit(rows: 10, marked: true)
        var cursor = WriteAheadLogCursor(path: log.walPath, saveCount: 1)
        #expect(cursor.advance() == WriteAheadLogCursor.Findings())
        try log.commit(rows: 30, marked: true)
        try log.commit(rows: 30)
        try log.commit(rows: 5, marked: true)
        let found = cursor.advance()
        #expect(found.commits == 3)
        #expect(found.unmarked == 1)
        #expect(!found.lostTrack)
        #expect(cursor.advance() == WriteAheadLogCursor.Findings(), "each transaction is read once")
    }
}
