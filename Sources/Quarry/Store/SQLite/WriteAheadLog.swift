import Foundation

/// What an SQLite write-ahead log (`<file>-wal`) holds, read as SQLite's recovery reads it:
/// the header, then the frames whose salts match the header and whose running checksums hold,
/// up to the last frame that commits a transaction. Frames past that (a transaction cut short,
/// or frames of an earlier generation of the log) are ones SQLite never replays.
///
/// SQLite itself never checks that a log belongs to the file beside it (nothing in the file
/// names its log), so Quarry reads the log to decide (see ``SQLiteStore/checkLogOwnership(path:fileHeader:)``).
///
/// The log is read with its own descriptor: SQLite keeps no POSIX locks on a `-wal` file, so
/// opening and closing it cannot drop a lock this process holds (unlike the database file's).
struct WriteAheadLog: Sendable {
    /// The database page size the log was written for.
    var pageSize: Int
    /// The header fields of each committed frame of page 1, in log order.
    var firstPageFrames: [DatabaseHeaderFields]
    /// How many frames SQLite would replay.
    var committedFrames: Int

    private static let frameHeaderSize = 24

    /// Reads the log at `path`.
    ///
    /// - Returns: `nil` when the log is absent, shorter than its header or has a header SQLite
    ///   would reject (it then replays nothing from it).
    /// - Throws: the `FileHandle` error when the log exists but cannot be read.
    static func read(path: String) throws -> WriteAheadLog? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            return nil
        }
        // Closing a read-only handle: nothing to lose if it fails.
        defer { try? handle.close() }
        let reader = ChunkedReader(handle: handle)
        guard let bytes = try reader.next(WALHeader.size), let header = WALHeader(bytes) else { return nil }
        let (pageSize, salts) = (header.pageSize, header.salts)
        var checksum = header.checksum

        var log = WriteAheadLog(pageSize: pageSize, firstPageFrames: [], committedFrames: 0)
        var pendingFirstPages: [DatabaseHeaderFields] = []
        var frames = 0
        while let frame = try reader.next(frameHeaderSize + pageSize) {
            guard (frame.bigEndianWord(at: 8), frame.bigEndianWord(at: 12)) == salts else { break }
            checksum.add(frame[0..<8])
            checksum.add(frame[frameHeaderSize...])
            guard checksum.matches(frame, at: 16) else { break }
            frames += 1
            if frame.bigEndianWord(at: 0) == 1 {
                pendingFirstPages.append(DatabaseHeaderFields(page: frame[frameHeaderSize...]))
            }
            if frame.bigEndianWord(at: 4) != 0 {
                // A commit frame: everything so far is what SQLite replays.
                log.committedFrames = frames
                log.firstPageFrames.append(contentsOf: pendingFirstPages)
                pendingFirstPages.removeAll()
            }
        }
        return log
    }

    /// Reads records of a given size one after the other (one `read` each: a log of 1,000
    /// frames, SQLite's checkpoint threshold, is read in about a millisecond).
    private struct ChunkedReader {
        let handle: FileHandle

        /// The next `count` bytes, or `nil` when fewer remain.
        func next(_ count: Int) throws -> Data? {
            guard let data = try handle.read(upToCount: count), data.count == count else { return nil }
            return data
        }
    }
}

/// SQLite's write-ahead log checksum: two running 32-bit sums over pairs of words.
struct WALChecksum {
    private(set) var first: UInt32 = 0
    private(set) var second: UInt32 = 0
    /// Whether words are read big-endian (the log's magic number says).
    let bigEndianWords: Bool

    init(bigEndianWords: Bool) { self.bigEndianWords = bigEndianWords }

    /// Adds `bytes` (a multiple of 8 bytes long).
    mutating func add(_ bytes: Data) {
        assert(bytes.count % 8 == 0, "WAL checksums cover whole pairs of words")
        var (s0, s1) = (first, second)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                var x0 = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                var x1 = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                if bigEndianWords { (x0, x1) = (UInt32(bigEndian: x0), UInt32(bigEndian: x1)) } else { (x0, x1) = (UInt32(littleEndian: x0), UInt32(littleEndian: x1)) }
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                offset += 8
            }
        }
        (first, second) = (s0, s1)
    }

    /// Whether the two big-endian words at `offset` of `record` are this checksum.
    func matches(_ record: Data, at offset: Int) -> Bool {
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
    init(page: Data) {
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

extension Data {
    /// The big-endian 32-bit word at `offset` from the start of this data.
    func bigEndianWord(at offset: Int) -> UInt32 {
        let i = startIndex + offset
        return UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }

    /// The big-endian 16-bit word at `offset` from the start of this data.
    func bigEndianHalfWord(at offset: Int) -> UInt16 {
        let i = startIndex + offset
        return UInt16(self[i]) << 8 | UInt16(self[i + 1])
    }
}
