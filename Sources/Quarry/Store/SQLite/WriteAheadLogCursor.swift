import Foundation

/// Follows a store's write-ahead log as it grows, commit by commit, and tells a Quarry save
/// from a write by another program.
///
/// Every Quarry save advances the save count in page 1 (see ``SQLiteStore/LogOwnershipMark``),
/// so its transaction's frames hold page 1 with a new count; a program that bypassed Quarry
/// commits frames without that. A watcher that only compares `PRAGMA data_version` cannot
/// tell the two apart once both commit between two of its reads, and history explains only
/// Quarry's: the cursor reads exactly the transactions committed since its last call.
///
/// When SQLite restarts the log (after a checkpoint copied all of it into the file), the new
/// transactions overwrite the log from its start; the rest of the old log, past the cursor,
/// is read first with the old salts while the new transactions have not reached it. When
/// they have, or the log was restarted twice or truncated, what was overwritten is unknown:
/// ``Findings/lostTrack``.
///
/// Not thread-safe: its owner (``SQLiteStoreWatcher``) calls it on one serial queue.
struct WriteAheadLogCursor {
    /// What one call found.
    struct Findings: Equatable, Sendable {
        /// Transactions committed since the last call.
        var commits = 0
        /// Of those, transactions that did not advance the save count (not a Quarry save).
        var unmarked = 0
        /// Transactions may have been committed and overwritten unseen.
        var lostTrack = false

        /// Whether a write that history does not describe may have happened.
        var mayHaveOutsideWrites: Bool { unmarked > 0 || lostTrack }
    }

    /// One generation of the log: from a header to the frames that carry its salts.
    private struct Generation {
        var salts: (UInt32, UInt32)
        var checkpointSequence: UInt32
        var pageSize: Int
        /// The running checksum after the last committed frame read.
        var checksum: WALChecksum
        /// Where the frame after the last committed one read starts.
        var offset: UInt64
    }

    /// The log's path (`<store>-wal`).
    let path: String
    private var generation: Generation?
    /// Page 1's save count after the last transaction read (`nil`: not known yet).
    private var saveCount: UInt32?

    private static let headerSize = UInt64(WALHeader.size)
    private static let frameHeaderSize = 24

    /// A cursor at the end of what the log at `path` holds committed now; `saveCount` is the
    /// store's save count as of then (`PRAGMA user_version`), or `nil` when unknown.
    init(path: String, saveCount: UInt32?) {
        self.path = path
        self.saveCount = saveCount
        _ = advance()
    }

    /// Reads the transactions committed since the last call.
    mutating func advance() -> Findings {
        var findings = Findings()
        guard let handle = FileHandle(forReadingAtPath: path) else {
            // No log: checkpointed and removed (no connection had the store open). Anything
            // committed since the last call was read then, unless it went with the log.
            if generation != nil { findings.lostTrack = true }
            generation = nil
            return findings
        }
        // Closing a read-only handle: nothing to lose if it fails.
        defer { try? handle.close() }
        guard let header = Self.readHeader(handle) else {
            // An empty or half-written header: the log was truncated, and what it held past
            // the cursor is in the file only.
            if generation != nil { findings.lostTrack = true }
            generation = nil
            return findings
        }
        if var current = generation {
            if current.salts == header.salts {
                readFrames(handle, of: &current, into: &findings)
                generation = current
                return findings
            }
            // Restarted. The old transactions the cursor had not reached are read first.
            let newExtentBefore = Self.extent(handle, of: header)
            readFrames(handle, of: &current, into: &findings)
            let newExtentAfter = Self.extent(handle, of: header)
            // SQLite writes a new header in two cases. After a checkpoint emptied the log it
            // restarts it (checkpoint sequence + 1): the old transactions past the cursor are
            // intact while the new ones have not reached them. Into a log with no transaction
            // in it (a header alone, or one made by a connection that never committed) it
            // writes the first one under a new header with the same sequence: nothing of the
            // old generation existed, so nothing was missed, if the cursor had read none either.
            let restartedOnce = header.checkpointSequence == current.checkpointSequence &+ 1
                && newExtentBefore <= current.offset && newExtentAfter <= current.offset
            let firstWriteIntoEmptyLog = header.checkpointSequence == current.checkpointSequence && current.offset == Self.headerSize
            if !restartedOnce && !firstWriteIntoEmptyLog {
                findings.lostTrack = true
            }
        }
        // A log the cursor had not seen (made since the last call): everything in it is new.
        var fresh = header
        readFrames(handle, of: &fresh, into: &findings)
        generation = fresh
        return findings
    }

    /// The header at the start of the log, as a generation positioned before its first frame,
    /// or `nil` when it is short or SQLite would reject it.
    private static func readHeader(_ handle: FileHandle) -> Generation? {
        guard (try? handle.seek(toOffset: 0)) != nil, // the log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version
              // The log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version.
              let bytes = try? handle.read(upToCount: WALHeader.size), let header = WALHeader(bytes) else { return nil }
        return Generation(salts: header.salts, checkpointSequence: header.checkpointSequence, pageSize: header.pageSize,
                          checksum: header.checksum, offset: headerSize)
    }

    /// Where the frames carrying `generation`'s salts end (valid or not, committed or not):
    /// how far a new generation has overwritten the log.
    private static func extent(_ handle: FileHandle, of generation: Generation) -> UInt64 {
        let frameSize = UInt64(frameHeaderSize + generation.pageSize)
        var offset = generation.offset
        while (try? handle.seek(toOffset: offset)) != nil, // the log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version
              let bytes = try? handle.read(upToCount: 16), bytes.count == 16, // the log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version
              (bytes.bigEndianWord(at: 8), bytes.bigEndianWord(at: 12)) == generation.salts {
            offset += frameSize
        }
        return offset
    }

    /// Reads `generation`'s committed transactions from its offset on, counting them and the
    /// unmarked ones into `findings`, and moves the generation past them.
    private mutating func readFrames(_ handle: FileHandle, of generation: inout Generation, into findings: inout Findings) {
        let frameSize = Self.frameHeaderSize + generation.pageSize
        var checksum = generation.checksum
        var offset = generation.offset
        var pendingCount: UInt32?
        guard (try? handle.seek(toOffset: offset)) != nil else { return } // the log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version
        while let frame = try? handle.read(upToCount: frameSize), frame.count == frameSize, // the log is read as far as it is intact: a read that fails ends it like a torn frame, and the watcher then re-checks through data_version
              (frame.bigEndianWord(at: 8), frame.bigEndianWord(at: 12)) == generation.salts {
            checksum.add(frame[0..<8])
            checksum.add(frame[Self.frameHeaderSize...])
            guard checksum.matches(frame, at: 16) else { break }
            offset += UInt64(frameSize)
            if frame.bigEndianWord(at: 0) == 1 {
                pendingCount = DatabaseHeaderFields(page: frame[Self.frameHeaderSize...]).userVersion
            }
            guard frame.bigEndianWord(at: 4) != 0 else { continue }
            // A commit frame ends a transaction.
            findings.commits += 1
            if let count = pendingCount, count != saveCount {
                saveCount = count
            } else {
                findings.unmarked += 1
            }
            pendingCount = nil
            generation.checksum = checksum
            generation.offset = offset
        }
    }
}
