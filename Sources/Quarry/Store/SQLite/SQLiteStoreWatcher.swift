import Dispatch
import Foundation
import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices commits other connections make to an SQLite store, without polling while idle.
///
/// An inotify watch on the store's *folder* (so it survives the `-wal` being deleted and made
/// again), through the process's one ``FolderWatchHub``, reports writes to the store file
/// (rollback-journal writers and checkpoints), to its `-wal` and to its `-journal` on the
/// watcher's serial queue. There `PRAGMA data_version`, read on a connection of the watcher's
/// own that stays open, tells a commit by another connection from a checkpoint or a read. A
/// commit writes its frames back to back, an event each (hundreds for a large save): a burst
/// of events costs one `data_version` read, 0.25 ms after its latest event (at most 4 ms
/// after its first), so the watcher does not take the cores from the writer it waits for.
///
/// A writer appends its commit frame to the `-wal` *before* it publishes the commit in the
/// shared-memory index (which inotify cannot see; with `synchronous = FULL` after flushing the
/// log), so a read can still find the old `data_version`: a few re-checks follow each burst
/// (1, 2, 10, 50 and 250 ms apart), and only such a burst; while nothing is written, nothing
/// runs.
///
/// When the system's limit on inotify instances or watches is reached (or `watchesFolder` is
/// false), the watcher polls instead: every ``pollInterval`` it compares the three files'
/// size, modification time and inode, and a difference counts as their events would. Commits
/// then show up to a quarter of a second later, at the cost of a `stat` of three files four
/// times a second.
///
/// `onCommit` runs on the watcher's queue, once per batch of events that changed
/// `data_version`, told what was written since the last call (``WatchedWrites``): whether the
/// `-wal` or the `-journal` was, and whether a transaction that was not a Quarry save was
/// committed to the `-wal` (a ``WriteAheadLogCursor`` reads each one, on another thread while
/// `onCommit` reads history: see ``WatchedWrites/outsideFound``). A checkpoint (which
/// writes the store file only) can change `data_version` with no commit; so can a commit whose
/// history the last read already took. `onQuiet` runs once the re-checks after a batch found
/// nothing more: a rollback-journal writer's change that history still does not explain by then
/// is an outside write. `onCheckFailure` runs
/// (on the same queue) for each `data_version` read that fails; the read counts as "no change".
/// The watcher stops on ``cancel()`` or when released.
final class SQLiteStoreWatcher: @unchecked Sendable {
    // Every mutable property but `cancelled` (a Mutex) is confined to `queue`
    // ("Quarry.StoreWatcher <file>"); `init` sets them before the read source can run.

    /// The store file watched.
    let storeURL: URL
    /// The serial queue the events, the `data_version` reads and `onCommit` run on.
    let queue: DispatchQueue
    /// The folder's events, `nil` while polling.
    private let subscription: FolderWatchHub.Subscription?
    /// What `stat` said of the store file, its `-wal` and its `-journal` (those that existed)
    /// at the last poll, by name; `nil` unless polling.
    private var stamps: [String: StoreFileState.Entry]?
    /// How often a watcher without inotify compares the files' stamps.
    static let pollInterval = DispatchTimeInterval.milliseconds(250)
    private let connection: DatabaseQueue
    private let names: Set<String>
    /// The `-wal` and `-journal`: where a commit writes (the store file alone is a checkpoint's).
    private let logNames: Set<String>
    /// The `-journal`: where a rollback-journal writer commits, unseen by the cursor.
    private let journalName: String
    private let onCommit: @Sendable (WatchedWrites) -> Void
    /// Reads the transactions committed to the `-wal` since the last check, telling Quarry's
    /// saves from other programs' writes (see ``WriteAheadLogCursor``).
    private var cursor: WriteAheadLogCursor
    private let onQuiet: @Sendable () -> Void
    private let onCheckFailure: @Sendable (any Error) -> Void
    /// What was written since the last `onCommit`.
    private var writes = WatchedWrites()
    private var dataVersion: Int64
    /// Set by ``cancel()`` from any thread (also from `queue` itself: a stack released there).
    private let cancelled = Mutex(false)
    /// The re-check the timer runs next when no burst is pending (an index into
    /// `recheckDelays` plus one), or `nil` when none is.
    private var pendingRecheck: Int?
    /// Delays of the re-checks after a burst's read that found `data_version` unchanged, each
    /// from the one before, in milliseconds.
    private static let recheckDelays = [1, 2, 10, 50, 250]
    /// Every `data_version` read runs from this timer: a burst's (`quietAfterEvent` after its
    /// latest event, or `longestBurst` after its first), or the next re-check. A burst's read
    /// replaces a pending re-check, and starts the re-checks over.
    private let timer: DispatchSourceTimer
    /// When the first event not yet followed by a read arrived.
    private var burstStarted: DispatchTime?
    /// When the latest event of the burst arrived. Events only move this: the timer, armed
    /// once per burst, moves itself on when it fires too early (re-arming a dispatch timer for
    /// each of a commit's hundreds of events cost more than the commit's merge).
    private var latestEvent = DispatchTime.now()
    /// How long after a burst's latest event its `data_version` read runs: a commit writes its
    /// frames back to back (an event each) and publishes right after the last one.
    private static let quietAfterEvent = DispatchTimeInterval.microseconds(250)
    /// The longest a burst of events defers its read (a writer committing without pause).
    private static let longestBurst = DispatchTimeInterval.milliseconds(4)

    /// Starts watching the store at `storeURL`: through inotify, or by polling when
    /// `watchesFolder` is false or the system's inotify limits are reached.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the folder cannot be watched or
    ///   the store cannot be opened for reading.
    init(storeURL: URL, watchesFolder: Bool = true, onCommit: @escaping @Sendable (WatchedWrites) -> Void,
         onQuiet: @escaping @Sendable () -> Void = {}, onCheckFailure: @escaping @Sendable (any Error) -> Void) throws {
        self.storeURL = storeURL
        self.onCommit = onCommit
        self.onQuiet = onQuiet
        self.onCheckFailure = onCheckFailure
        let file = storeURL.lastPathComponent
        self.journalName = file + "-journal"
        self.logNames = [file + "-wal", journalName]
        self.names = logNames.union([file])
        let queue = DispatchQueue(label: "Quarry.StoreWatcher \(file)")
        self.queue = queue
        let folder = storeURL.deletingLastPathComponent().path
        // The events go to `self` once it exists: a box filled at the end, which keeps those
        // that arrive before (written after the subscription, maybe after the reads below).
        let target = WeakWatcher()
        var subscription: FolderWatchHub.Subscription?
        if watchesFolder {
            do {
                subscription = try FolderWatchHub.subscribe(folder: folder, names: names, queue: queue) { written in
                    target.deliver(written)
                }
            } catch .limitReached {
                subscription = nil
            } catch .refused(let reason) {
                throw StoreError.cannotOpen(path: folder, reason: reason)
            }
        }
        do {
            var configuration = Configuration()
            configuration.label = "Quarry.StoreWatcher"
            configuration.readonly = true
            connection = try DatabaseQueue(path: storeURL.path, configuration: configuration)
            dataVersion = try Self.readDataVersion(connection)
            let saveCount = try connection.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA user_version") }
            cursor = WriteAheadLogCursor(path: storeURL.path + "-wal", saveCount: saveCount.map { UInt32(truncatingIfNeeded: $0) })
        } catch {
            throw StoreError.cannotOpen(path: storeURL.path, reason: "watching for other processes' commits: \(error)")
        }
        timer = DispatchSource.makeTimerSource(queue: queue)
        self.subscription = subscription
        if subscription == nil { stamps = stampsNow() }
        timer.setEventHandler { [weak self] in self?.timerFired() }
        timer.schedule(deadline: subscription == nil ? .now() + Self.pollInterval : .distantFuture)
        timer.resume()
        // Files written since the subscription (a commit after the reads above among them).
        let early = target.set(self)
        if !early.isEmpty { queue.async { [weak self] in self?.eventsArrived(early) } }
    }

    /// Whether the watcher polls (no inotify watch).
    var polls: Bool { subscription == nil }

    deinit {
        subscription?.cancel()
        timer.cancel()
    }

    /// Stops watching; `onCommit` is not called after this returns (unless it is running).
    /// Never waits, so it may be called on the watcher's queue too.
    func cancel() {
        cancelled.withLock { $0 = true }
        subscription?.cancel()
        timer.cancel()
    }

    private var isCancelled: Bool { cancelled.withLock { $0 } }

    // MARK: Events

    /// Files of the store's were written (`written`: their names).
    fileprivate func eventsArrived(_ written: Set<String>) {
        guard !isCancelled, !written.isDisjoint(with: names) else { return }
        noteWritten(written)
        // One read per burst: a commit's frames arrive as one event each.
        latestEvent = DispatchTime.now()
        guard burstStarted == nil else { return }
        burstStarted = latestEvent
        timer.schedule(deadline: latestEvent + Self.quietAfterEvent)
    }

    /// When the burst's read is due: `quietAfterEvent` after its latest event, or
    /// `longestBurst` after its first.
    private func burstReadDue(_ started: DispatchTime) -> DispatchTime {
        min(latestEvent + Self.quietAfterEvent, started + Self.longestBurst)
    }

    /// A burst's read (which drops a pending re-check), else the pending re-check, else (when
    /// polling) a poll.
    private func timerFired() {
        guard !isCancelled else { return }
        if let started = burstStarted, stamps == nil, case let due = burstReadDue(started), DispatchTime.now() < due {
            // Events came since the timer was armed: the burst goes on.
            timer.schedule(deadline: due)
            return
        }
        if stamps != nil, pollFoundWrites() {
            // Written since the last poll: read now, as a burst's read.
            burstStarted = burstStarted ?? .now()
        }
        let index: Int
        if burstStarted != nil {
            burstStarted = nil
            index = 0
        } else if let pending = pendingRecheck {
            index = pending
        } else {
            schedulePoll()
            return
        }
        pendingRecheck = nil
        check(recheckIndex: index)
    }

    /// Compares `data_version`, then checks again after the next delay: a commit whose last
    /// event was drained with an earlier one's may publish only after this read. A change
    /// starts the delays over; they end after a few reads that found none.
    private func check(recheckIndex: Int) {
        guard !isCancelled else { return }
        let now: Int64
        do {
            now = try Self.readDataVersion(connection)
        } catch {
            onCheckFailure(error)
            now = dataVersion
        }
        var next = recheckIndex
        if now != dataVersion {
            dataVersion = now
            var written = writes
            writes = WatchedWrites()
            // The cursor reads the log after `data_version` (a transaction it finds may not be
            // published yet, so it is reported with this change or, if none, the next one),
            // beside `onCommit`'s history read. While `data_version` stands still nothing was
            // committed, and the log is not read: mid-commit, its frames are still being written.
            let scan = LogScan(cursor)
            written.outsideFound = { scan.findings().mayHaveOutsideWrites }
            onCommit(written)
            cursor = scan.cursorAfter()
            next = 0
        }
        guard next < Self.recheckDelays.count else {
            onQuiet()
            schedulePoll()
            return
        }
        pendingRecheck = next + 1
        timer.schedule(deadline: .now() + .milliseconds(Self.recheckDelays[next]))
    }

    // MARK: Polling

    /// What `stat` says of the store's files now (a write moves a file's size or modification
    /// time, a file made again its inode), by name.
    private func stampsNow() -> [String: StoreFileState.Entry] {
        let folder = storeURL.deletingLastPathComponent().path
        var stamps: [String: StoreFileState.Entry] = [:]
        for name in names { stamps[name] = StoreFileState.Entry(path: folder + "/" + name) }
        return stamps
    }

    /// Compares the files' stamps with the last poll's, as their events would: whether the
    /// store's files were written (and whether its logs were).
    private func pollFoundWrites() -> Bool {
        let now = stampsNow()
        defer { stamps = now }
        let written = names.filter { now[$0] != stamps?[$0] }
        noteWritten(written)
        return !written.isEmpty
    }

    /// Notes which logs the store's files `written` include.
    private func noteWritten(_ written: Set<String>) {
        if !written.isDisjoint(with: logNames) { writes.log = true }
        if written.contains(journalName) { writes.unreadLog = true }
    }

    /// The next poll, when polling and nothing else is due.
    private func schedulePoll() {
        guard polls else { return }
        timer.schedule(deadline: .now() + Self.pollInterval)
    }

    private static func readDataVersion(_ connection: DatabaseQueue) throws -> Int64 {
        // Outside a transaction: each read sees the newest commit.
        try connection.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }
}

/// One ``WriteAheadLogCursor/advance()``, run on another thread beside the history read of
/// the change that started it (each takes about a millisecond per thousand frames).
private final class LogScan: Sendable {
    /// The cursor and what its advance found, set by the scan before it leaves `done`.
    private let state: Mutex<(cursor: WriteAheadLogCursor, found: WriteAheadLogCursor.Findings)>
    private let done = DispatchGroup()

    /// Starts advancing `cursor`.
    init(_ cursor: WriteAheadLogCursor) {
        state = Mutex((cursor, WriteAheadLogCursor.Findings()))
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            state.withLock { $0.found = $0.cursor.advance() }
            done.leave()
        }
    }

    /// What the scan found (waits for it).
    func findings() -> WriteAheadLogCursor.Findings {
        done.wait()
        return state.withLock { $0.found }
    }

    /// The cursor after the scan (waits for it).
    func cursorAfter() -> WriteAheadLogCursor {
        done.wait()
        return state.withLock { $0.cursor }
    }
}

/// Lets the folder's events reach a watcher made after its subscription, without keeping it
/// alive: the names written before the watcher is set are kept for it.
private final class WeakWatcher: Sendable {
    private struct Reference {
        weak var watcher: SQLiteStoreWatcher?
        var early: Set<String> = []
    }
    private let reference = Mutex(Reference())

    /// Hands `written` to the watcher (on its queue, where the hub calls this), or keeps it
    /// until the watcher is set.
    func deliver(_ written: Set<String>) {
        let watcher = reference.withLock { reference -> SQLiteStoreWatcher? in
            if reference.watcher == nil { reference.early.formUnion(written) }
            return reference.watcher
        }
        watcher?.eventsArrived(written)
    }

    /// Sets the watcher; returns the names written before.
    func set(_ watcher: SQLiteStoreWatcher) -> Set<String> {
        reference.withLock { reference in
            reference.watcher = watcher
            defer { reference.early = [] }
            return reference.early
        }
    }
}
