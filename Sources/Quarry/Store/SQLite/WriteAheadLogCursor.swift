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
        // A log that cannot be opened or read is read as far as it can be, like a torn frame:
        // the watcher then re-checks through `data_version`.
        guard let file = try? WALFile(path: path) else {
            // No log: checkpointed and removed (no connection had the store open). Anything
            // committed since the last call was read then, unless it went with the log.
            if generation != nil { findings.lostTrack = true }
            generation = nil
            return findings
        }
        guard let header = try? file.header() else { // read as far as it can be (see above)
            // An empty or half-written header: the log was truncated, and what it held past
            // the cursor is in the file only.
            if generation != nil { findings.lostTrack = true }
            generation = nil
            return findings
        }
        if var current = generation {
            if current.salts == header.salts {
                readFrames(file, of: &current, into: &findings)
                generation = current
                return findings
            }
            // Restarted. The old transactions the cursor had not reached are read first.
            let newExtentBefore = Self.extent(file, of: header)
            readFrames(file, of: &current, into: &findings)
            let newExtentAfter = Self.extent(file, of: header)
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
        var fresh = Generation(salts: header.salts, checkpointSequence: header.checkpointSequence, pageSize: header.pageSize,
                               checksum: header.checksum, offset: Self.headerSize)
        readFrames(file, of: &fresh, into: &findings)
        generation = fresh
        return findings
    }

    /// Where the frames carrying `generation`'s salts end (valid or not, committed or not):
    /// how far a new generation has overwritten the log.
    private static func extent(_ file: WALFile, of generation: WALHeader) -> UInt64 {
        // A read that fails ends the extent like a torn frame (see `advance`).
        (try? file.extent(from: headerSize, pageSize: generation.pageSize, salts: generation.salts)) ?? headerSize
    }

    /// Reads `generation`'s committed transactions from its offset on, counting them and the
    /// unmarked ones into `findings`, and moves the generation past them.
    private mutating func readFrames(_ file: WALFile, of generation: inout Generation, into findings: inout Findings) {
        var pendingCount: UInt32?
        var saveCount = self.saveCount
        defer { self.saveCount = saveCount }
        let start = generation
        var end = generation
        // A read that fails ends the frames like a torn frame (see `advance`): the frames before it count.
        try? file.scan(from: start.offset, pageSize: start.pageSize, salts: start.salts, checksum: start.checksum) { frame in
            if frame.pageNumber == 1 { pendingCount = DatabaseHeaderFields(page: frame.page).userVersion }
            guard frame.isCommit else { return }
            // A commit frame ends a transaction.
            findings.commits += 1
            if let count = pendingCount, count != saveCount {
                saveCount = count
            } else {
                findings.unmarked += 1
            }
            pendingCount = nil
            end.checksum = frame.checksum
            end.offset = frame.end
        }
        generation = end
    }
}
