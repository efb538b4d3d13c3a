import Foundation

/// What an SQLite write-ahead log (`<file>-wal`) holds, read as SQLite's recovery reads it:
/// the header, then the frames whose salts match the header and whose running checksums hold,
/// up to the last frame that commits a transaction. Frames past that (a transaction cut short,
/// or frames of an earlier generation of the log) are ones SQLite never replays.
///
/// SQLite itself never checks that a log belongs to the file beside it (nothing in the file
/// names its log), so Quarry reads the log to decide (see ``SQLiteStore/checkLogOwnership(path:fileHeader:)``).
///
/// The log is read through a ``WALFile``.
struct WriteAheadLog: Sendable {
    /// The database page size the log was written for.
    var pageSize: Int
    /// The header fields of each committed frame of page 1, in log order.
    var firstPageFrames: [DatabaseHeaderFields]
    /// How many frames SQLite would replay.
    var committedFrames: Int

    /// Reads the log at `path`.
    ///
    /// - Returns: `nil` when the log is absent, shorter than its header or has a header SQLite
    ///   would reject (it then replays nothing from it).
    /// - Throws: `CocoaError(.fileReadNoPermission)` when the log exists but cannot be opened,
    ///   ``WALFile/ReadFailed`` when it cannot be read.
    static func read(path: String) throws -> WriteAheadLog? {
        guard let file = try WALFile(path: path), let header = try file.header() else { return nil }
        var log = WriteAheadLog(pageSize: header.pageSize, firstPageFrames: [], committedFrames: 0)
        var pendingFirstPages: [DatabaseHeaderFields] = []
        var frames = 0
        try file.scan(from: UInt64(WALHeader.size), pageSize: header.pageSize, salts: header.salts, checksum: header.checksum) { frame in
            frames += 1
            if frame.pageNumber == 1 { pendingFirstPages.append(DatabaseHeaderFields(page: frame.page)) }
            guard frame.isCommit else { return }
            // A commit frame: everything so far is what SQLite replays.
            log.committedFrames = frames
            log.firstPageFrames.append(contentsOf: pendingFirstPages)
            pendingFirstPages.removeAll()
        }
        return log
    }
}

/// SQLite's write-ahead log checksum: two running 32-bit sums over pairs of words.
struct WALChecksum {
    private(set) var first: UInt32 = 0
    private(set) var second: UInt32 = 0
    /// Whether words are read big-endian (the log's magic number says).
    let bigEndianWords: Bool

    init(bigEndianWords: Bool) { self.bigEndianWords = bigEndianWords }

    /// Adds the bytes `raw` points to (a multiple of 8 bytes long).
    mutating func add(_ raw: UnsafeRawBufferPointer) {
        assert(raw.count % 8 == 0, "WAL checksums cover whole pairs of words")
        var (s0, s1) = (first, second)
        var offset = 0
        if bigEndianWords {
            while offset < raw.count {
                s0 = s0 &+ UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) &+ s1
                s1 = s1 &+ UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)) &+ s0
                offset += 8
            }
        } else {
            while offset < raw.count {
                s0 = s0 &+ UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) &+ s1
                s1 = s1 &+ UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)) &+ s0
                offset += 8
            }
        }
        (first, second) = (s0, s1)
    }

    /// Whether the two big-endian words at `offset` of `record` are this checksum.
    func matches(_ record: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        record.bigEndianWord(at: offset) == first && record.bigEndianWord(at: offset + 4) == second
    }
}

/// The fields of an SQLite database header (the first 100 bytes of page 1) that Quarry reads
/// to tie a log to its file.
struct DatabaseHeaderFields: Equatable, Sendable {
    /// The page size (header offset 16; 1 stands for 65,536).
    var pageSize: Int
    /// `PRAGMA user_version` (offset 60): a Quarry store's save count (see ``SQLiteStore/LogOwnershipMark``).
    var userVersion: UInt32
    /// `PRAGMA application_id` (offset 68): a Quarry store's tag (see ``SQLiteStore/LogOwnershipMark``).
    var applicationID: UInt32

    /// The fields of the page starting at `page` (at least 100 bytes long).
    init(page: UnsafeRawBufferPointer) {
        let raw = Int(page.bigEndianHalfWord(at: 16))
        pageSize = raw == 1 ? 65_536 : raw
        userVersion = page.bigEndianWord(at: 60)
        applicationID = page.bigEndianWord(at: 68)
    }

    init(pageSize: Int, userVersion: UInt32, applicationID: UInt32) {
        self.pageSize = pageSize
        self.userVersion = userVersion
        self.applicationID = applicationID
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit word at `offset`.
    func bigEndianWord(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit word at `offset`.
    func bigEndianHalfWord(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
