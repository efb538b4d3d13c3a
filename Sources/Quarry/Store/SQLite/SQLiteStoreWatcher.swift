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
/// again) reports writes to the store file (rollback-journal writers and checkpoints), to its
/// `-wal` and to its `-journal`; a Dispatch read source on the inotify descriptor wakes the
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
/// `onCommit` runs on the watcher's queue, once per batch of events that changed
/// `data_version`, told whether a transaction that was not a Quarry save was committed to the
/// `-wal` since the last call (a ``WriteAheadLogCursor`` reads them), and whether the `-wal`
/// or `-journal` was written since the last call: a
/// checkpoint (which writes the store file only) can change `data_version` with no commit, so
/// a change that history does not explain counts as an outside write only after such a write.
/// `onQuiet` runs once the re-checks after a batch found nothing more: a writer that restarts
/// the `-wal` changes `data_version` when it starts writing, before its commit, so only a
/// change history still does not explain by then is an outside write. `onCheckFailure` runs
/// (on the same queue) for each `data_version` read that fails; the read counts as "no change".
/// The watcher stops on ``cancel()`` or when released.
final class SQLiteStoreWatcher: @unchecked Sendable {
    // Every mutable property but `cancelled` (a Mutex) is confined to `queue`
    // ("Quarry.StoreWatcher <file>"); `init` sets them before the read source can run.

    /// The store file watched.
    let storeURL: URL
    /// The serial queue the events, the `data_version` reads and `onCommit` run on.
    let queue: DispatchQueue
    private let inotify: Int32
    private let source: DispatchSourceRead
    private let connection: DatabaseQueue
    private let names: Set<String>
    /// The `-wal` and `-journal`: where a commit writes (the store file alone is a checkpoint's).
    private let logNames: Set<String>
    private let onCommit: @Sendable (_ logWritten: Bool, _ outsideWrite: Bool) -> Void
    /// Reads the transactions committed to the `-wal` since the last check, telling Quarry's
    /// saves from other programs' writes (see ``WriteAheadLogCursor``).
    private var cursor: WriteAheadLogCursor
    /// Whether the cursor found a write history does not describe since the last `onCommit`.
    private var outsideWrite = false
    private let onQuiet: @Sendable () -> Void
    private let onCheckFailure: @Sendable (any Error) -> Void
    /// Whether the `-wal` or `-journal` was written since the last `onCommit`.
    private var logWritten = false
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
    /// How long after a burst's latest event its `data_version` read runs: a commit writes its
    /// frames back to back (an event each) and publishes right after the last one.
    private static let quietAfterEvent = DispatchTimeInterval.microseconds(250)
    /// The longest a burst of events defers its read (a writer committing without pause).
    private static let longestBurst = DispatchTimeInterval.milliseconds(4)

    /// Starts watching the store at `storeURL`.
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` when the folder cannot be watched or
    ///   the store cannot be opened for reading.
    init(storeURL: URL, onCommit: @escaping @Sendable (_ logWritten: Bool, _ outsideWrite: Bool) -> Void,
         onQuiet: @escaping @Sendable () -> Void = {}, onCheckFailure: @escaping @Sendable (any Error) -> Void) throws {
        self.storeURL = storeURL
        self.onCommit = onCommit
        self.onQuiet = onQuiet
        self.onCheckFailure = onCheckFailure
        let file = storeURL.lastPathComponent
        self.logNames = [file + "-wal", file + "-journal"]
        self.names = logNames.union([file])
        self.queue = DispatchQueue(label: "Quarry.StoreWatcher \(file)")
        let folder = storeURL.deletingLastPathComponent().path
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            let code = errno
            let reason = "inotify_init1: \(String(cString: strerror(code)))"
            if code == EMFILE || code == ENFILE || code == ENOMEM {
                throw ChangeFeedUnavailable(store: storeURL.path, reason: reason + " (the system's limit on file watchers, fs.inotify.max_user_instances, or on open files is reached)")
            }
            throw StoreError.cannotOpen(path: folder, reason: reason)
        }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let code = errno
            let reason = "inotify_add_watch: \(String(cString: strerror(code)))"
            close(descriptor)
            if code == ENOSPC || code == ENOMEM {
                throw ChangeFeedUnavailable(store: storeURL.path, reason: reason + " (the system's limit on watched folders, fs.inotify.max_user_watches, is reached)")
            }
            throw StoreError.cannotOpen(path: folder, reason: reason)
        }
        self.inotify = descriptor
        do {
            var configuration = Configuration()
            configuration.label = "Quarry.StoreWatcher"
            configuration.readonly = true
            connection = try DatabaseQueue(path: storeURL.path, configuration: configuration)
            dataVersion = try Self.readDataVersion(connection)
            let saveCount = try connection.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA user_version") }
            cursor = WriteAheadLogCursor(path: storeURL.path + "-wal", saveCount: saveCount.map { UInt32(truncatingIfNeeded: $0) })
        } catch {
            close(descriptor)
            throw StoreError.cannotOpen(path: storeURL.path, reason: "watching for other processes' commits: \(error)")
        }
        timer = DispatchSource.makeTimerSource(queue: queue)
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.eventsArrived() }
        source.setCancelHandler { close(descriptor) }
        timer.setEventHandler { [weak self] in self?.timerFired() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        source.resume()
    }

    deinit {
        source.cancel()
        timer.cancel()
    }

    /// Stops watching; `onCommit` is not called after this returns (unless it is running).
    /// Never waits, so it may be called on the watcher's queue too.
    func cancel() {
        cancelled.withLock { $0 = true }
        source.cancel()
        timer.cancel()
    }

    private var isCancelled: Bool { cancelled.withLock { $0 } }

    // MARK: Events

    private func eventsArrived() {
        guard !isCancelled, drainEvents() else { return }
        // One read per burst: a commit's frames arrive as one event each.
        let now = DispatchTime.now()
        let started = burstStarted ?? now
        burstStarted = started
        timer.schedule(deadline: min(now + Self.quietAfterEvent, started + Self.longestBurst))
    }

    /// A burst's read (which drops a pending re-check), else the pending re-check.
    private func timerFired() {
        let index: Int
        if burstStarted != nil {
            burstStarted = nil
            index = 0
        } else if let pending = pendingRecheck {
            index = pending
        } else {
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
        // Read after `data_version`: a transaction the cursor finds may not be published yet,
        // so it is reported with this change or, if none, the next one.
        if cursor.advance().mayHaveOutsideWrites { outsideWrite = true }
        var next = recheckIndex
        if now != dataVersion {
            dataVersion = now
            let (written, outside) = (logWritten, outsideWrite)
            logWritten = false
            outsideWrite = false
            onCommit(written, outside)
            next = 0
        }
        guard next < Self.recheckDelays.count else {
            onQuiet()
            return
        }
        pendingRecheck = next + 1
        timer.schedule(deadline: .now() + .milliseconds(Self.recheckDelays[next]))
    }

    /// Reads every pending inotify event; whether one concerned the store's files.
    private func drainEvents() -> Bool {
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= count {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                if length > 0 {
                    let name = String(cString: buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self))
                    if names.contains(name) { relevant = true }
                    if logNames.contains(name) { logWritten = true }
                }
                offset += 16 + length
            }
        }
        return relevant
    }

    private static func readDataVersion(_ connection: DatabaseQueue) throws -> Int64 {
        // Outside a transaction: each read sees the newest commit.
        try connection.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }
}
