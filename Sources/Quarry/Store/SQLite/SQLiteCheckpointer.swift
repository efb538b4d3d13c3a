import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints a store's write-ahead log *after* a save returns, instead of inside its commit.
///
/// SQLite's automatic checkpoint runs in the `COMMIT` statement, after the commit is visible
/// to other connections but before the save returns: with 1,000 or more frames in the log,
/// every such save waited for the log to be copied into the file and flushed (about 25 ms for
/// 1,000 changes on the benchmark machine), and competed for the cores with every watcher
/// reacting to that very commit. This type takes SQLite's place: a WAL hook (set on every
/// connection of the store's pool, which replaces the automatic checkpoint) notes each commit
/// and, from 1,000 frames on (SQLite's threshold), queues one `PASSIVE` checkpoint on the pool's
/// writer queue, where it runs after the statement that committed (and after `delay`), before
/// the writes queued behind it.
/// A checkpoint never loses data: a process killed in one leaves the log to be replayed.
final class SQLiteCheckpointer: Sendable {
    /// SQLite's own threshold (`SQLITE_DEFAULT_WAL_AUTOCHECKPOINT`), in frames.
    static let threshold: Int32 = 1000
    /// How long after the commit the checkpoint is queued (50 ms for stores): the connections
    /// a commit wakes (watchers in other processes) read its pages from the log first, without
    /// the checkpoint copying them on the same cores.
    let delay: DispatchTimeInterval
    /// Called on the writer queue after each checkpoint, with the log's frames and how many
    /// of them are now in the file (for tests).
    private let onCheckpoint: (@Sendable (_ logFrames: Int, _ checkpointed: Int) -> Void)?

    init(delay: DispatchTimeInterval = .milliseconds(50),
         onCheckpoint: (@Sendable (_ logFrames: Int, _ checkpointed: Int) -> Void)? = nil) {
        self.delay = delay
        self.onCheckpoint = onCheckpoint
    }

    private struct State {
        /// The pool checkpointed (set once it exists; weak: the pool keeps this alive).
        weak var pool: DatabasePool?
        /// Whether a checkpoint is queued and has not run yet.
        var queued = false
        /// When the last commit through the pool became visible (monotonic, nanoseconds).
        var lastCommit: UInt64 = 0
    }
    private let state = Mutex(State())

    /// When the last commit through the store's pool became visible to other connections
    /// (`DispatchTime` uptime nanoseconds; 0 before the first).
    var lastCommitUptime: UInt64 { state.withLock { $0.lastCommit } }

    /// Starts checkpointing `pool` (whose connections were prepared with ``install(on:)``).
    func attach(_ pool: DatabasePool) {
        state.withLock { $0.pool = pool }
    }

    /// Sets the WAL hook on `db` (from the pool's `prepareDatabase`). The pool's configuration
    /// holds the closure that holds `self`, so `self` outlives every connection of the pool.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, frames in
            Unmanaged<SQLiteCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(frames: frames)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by SQLite on the writer queue right after a commit, inside `COMMIT`.
    private func committed(frames: Int32) {
        let now = DispatchTime.now().uptimeNanoseconds
        let pool: DatabasePool? = state.withLock { s in
            s.lastCommit = now
            guard frames >= Self.threshold, !s.queued, let pool = s.pool else { return nil }
            s.queued = true
            return pool
        }
        guard let pool else { return }
        // Queued behind the statement that is committing; never waited for.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [self] in
            pool.asyncWriteWithoutTransaction { [self] db in
                state.withLock { $0.queued = false }
                // A checkpoint that cannot run now (a reader on an old snapshot, the file
                // busy) is retried after a later commit, as SQLite's own would be.
                if let result = try? db.checkpoint(.passive) {
                    onCheckpoint?(result.walFrameCount, result.checkpointedFrameCount)
                }
            }
        }
    }
}
