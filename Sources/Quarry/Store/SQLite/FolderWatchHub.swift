import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's one inotify instance, shared by every ``SQLiteStoreWatcher``.
///
/// Linux allows each user 128 inotify instances (`fs.inotify.max_user_instances`), across all
/// of the user's processes; an instance per watched store ran out with a hundred stacks open in
/// one process, taking other programs' file watching with it. The hub holds one instance and
/// one watch per folder (however many stores in it are watched), reads the events on its own
/// queue, and hands each subscriber the names it asked about, on the subscriber's queue, once
/// per read: a commit's hundreds of frame writes read together arrive as one call.
///
/// ```swift
/// let subscription = try FolderWatchHub.subscribe(folder: "/data", names: ["a.sqlite", "a.sqlite-wal"],
///                                                queue: queue) { written in print(written) }
/// subscription.cancel()
/// ```
final class FolderWatchHub: @unchecked Sendable {
    // `state` is a Mutex; `source` is set once in `init` and never touched again (its handler
    // runs on the queue "Quarry.FolderWatchHub", the only place the descriptor is read).
    /// Why a folder cannot be watched.
    enum Failure: Error {
        /// A system limit is reached (inotify instances or watches, open files): the caller
        /// can do without events (polling).
        case limitReached(String)
        /// The folder cannot be watched (missing, not a folder, not readable).
        case refused(String)
    }

    /// One subscriber: the names it follows, the queue its handler runs on, the handler, and
    /// the names written that its handler has not been given yet.
    private struct Subscriber {
        let names: Set<String>
        let queue: DispatchQueue
        let handler: @Sendable (Set<String>) -> Void
        let inbox = Inbox()

        /// Hands `written` to the handler, on the subscriber's queue: with the names already
        /// waiting there when a call is queued, else in a new call.
        func deliver(_ written: Set<String>) {
            guard inbox.add(written) else { return }
            let (inbox, handler) = (inbox, handler)
            queue.async { handler(inbox.take()) }
        }
    }

    /// The names written for one subscriber that its queued call has not taken yet: a commit
    /// writes hundreds of frames, an event each, faster than a busy queue may take them, and
    /// they then wait as one call instead of hundreds.
    private final class Inbox: Sendable {
        private let waiting = Mutex<Set<String>?>(nil)

        /// Adds `names`; whether a call must be queued to take them (none is waiting).
        func add(_ names: Set<String>) -> Bool {
            waiting.withLock { waiting in
                defer { waiting = (waiting ?? []).union(names) }
                return waiting == nil
            }
        }

        /// Takes every name waiting (the queued call runs).
        func take() -> Set<String> {
            waiting.withLock { waiting in
                defer { waiting = nil }
                return waiting ?? []
            }
        }
    }

    /// The subscribers of each watch descriptor (one per folder), by subscription number.
    private struct State {
        var subscribers: [Int32: [Int: Subscriber]] = [:]
        var nextID = 0
    }

    /// A subscription; events stop once it is cancelled or released.
    final class Subscription: Sendable {
        private let hub: FolderWatchHub
        private let descriptor: Int32
        private let id: Int
        private let cancelled = Mutex(false)

        fileprivate init(hub: FolderWatchHub, descriptor: Int32, id: Int) {
            self.hub = hub
            self.descriptor = descriptor
            self.id = id
        }

        deinit { cancel() }

        /// Stops the events (a handler already queued still runs: check a flag of your own).
        func cancel() {
            guard cancelled.withLock({ flag in defer { flag = true }; return !flag }) else { return }
            hub.remove(id: id, from: descriptor)
        }
    }

    /// The events a store watcher needs: a file written, closed after writing, made, moved in.
    private static let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)

    private let inotify: Int32
    private let state = Mutex(State())
    /// Reads the inotify descriptor on the queue "Quarry.FolderWatchHub"; never cancelled (the
    /// hub lives as long as the process).
    private let source: DispatchSourceRead

    /// The hub, made on first use; a failed attempt is not kept, so a later subscription tries again.
    private static let current = Mutex<FolderWatchHub?>(nil)

    /// Calls `handler` on `queue` with the ones of `names` written (or made, or moved in) in
    /// `folder`, after each read of the events.
    /// - Throws: ``Failure/limitReached(_:)`` when a system limit is reached,
    ///   ``Failure/refused(_:)`` when the folder cannot be watched; each says what the system said.
    static func subscribe(folder: String, names: Set<String>, queue: DispatchQueue,
                          handler: @escaping @Sendable (Set<String>) -> Void) throws(Failure) -> Subscription {
        let hub = try current.withLock { hub throws(Failure) -> FolderWatchHub in
            if let hub { return hub }
            let made = try FolderWatchHub()
            hub = made
            return made
        }
        return try hub.add(folder: folder, subscriber: Subscriber(names: names, queue: queue, handler: handler))
    }

    private init() throws(Failure) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            let code = errno
            let reason = "inotify_init1: \(String(cString: strerror(code)))"
            if code == EMFILE || code == ENFILE || code == ENOMEM {
                throw .limitReached(reason + " (the system's limit on file watchers, fs.inotify.max_user_instances, or on open files is reached)")
            }
            throw .refused(reason)
        }
        inotify = descriptor
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "Quarry.FolderWatchHub"))
        source.setEventHandler { [weak self] in self?.drain() }
        source.resume()
    }

    private func add(folder: String, subscriber: Subscriber) throws(Failure) -> Subscription {
        // Under the lock: a concurrent last cancel on the same folder must not remove the
        // watch between `inotify_add_watch` and the subscriber's entry.
        let (descriptor, id) = try state.withLock { state throws(Failure) -> (Int32, Int) in
            let descriptor = inotify_add_watch(inotify, folder, Self.mask)
            guard descriptor >= 0 else {
                let code = errno
                let reason = "inotify_add_watch \(folder): \(String(cString: strerror(code)))"
                if code == ENOSPC || code == ENOMEM {
                    throw .limitReached(reason + " (the system's limit on watched folders, fs.inotify.max_user_watches, is reached)")
                }
                throw .refused(reason)
            }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[descriptor, default: [:]][id] = subscriber
            return (descriptor, id)
        }
        return Subscription(hub: self, descriptor: descriptor, id: id)
    }

    private func remove(id: Int, from descriptor: Int32) {
        state.withLock { state in
            state.subscribers[descriptor]?[id] = nil
            guard state.subscribers[descriptor]?.isEmpty == true else { return }
            state.subscribers[descriptor] = nil
            inotify_rm_watch(inotify, descriptor)
        }
    }

    /// Reads every pending event, then hands each subscriber the names it follows that were
    /// written (all of them after the kernel's queue overflowed). A watch the kernel dropped
    /// (its folder deleted) loses its subscribers' entry.
    private func drain() {
        var written: [Int32: Set<String>] = [:]
        var dropped: [Int32] = []
        var overflowed = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= count {
                let descriptor = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                assert(offset + 16 + length <= count, "an inotify event runs past the bytes read")
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflowed = true
                } else if mask & UInt32(IN_IGNORED) != 0 {
                    dropped.append(descriptor)
                } else if length > 0 {
                    written[descriptor, default: []].insert(String(cString: buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self)))
                }
                offset += 16 + length
            }
        }
        let deliveries = state.withLock { state -> [(Subscriber, Set<String>)] in
            // The kernel removed these watches (the folder went, or `inotify_rm_watch` ran).
            for descriptor in dropped { state.subscribers[descriptor] = nil }
            if overflowed {
                // The kernel's queue (fs.inotify.max_queued_events, shared by every folder of the
                // process) overflowed and dropped events: any file may have been written.
                return state.subscribers.values.flatMap(\.values).map { ($0, $0.names) }
            }
            var deliveries: [(Subscriber, Set<String>)] = []
            for (descriptor, names) in written {
                for subscriber in (state.subscribers[descriptor] ?? [:]).values {
                    let followed = names.intersection(subscriber.names)
                    if !followed.isEmpty { deliveries.append((subscriber, followed)) }
                }
            }
            return deliveries
        }
        for (subscriber, names) in deliveries { subscriber.deliver(names) }
    }
}
