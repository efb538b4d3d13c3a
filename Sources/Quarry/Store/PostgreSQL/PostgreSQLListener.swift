import Dispatch
import Foundation
import Synchronization

/// Notices commits to a PostgreSQL store made by any connection on any host: the store's saves
/// `NOTIFY` its channel in their transaction, and the listener `LISTEN`s on a connection of its
/// own (made by ``PostgreSQLConnectionPool/connect()``, never shared with queries).
///
/// A notification arrives on the connection's wait thread (``PostgreSQLNotificationWaiter``) and
/// is handed to the listener's serial queue, where it schedules `onNotify`; a burst of notifications that arrive before it runs costs one run
/// (it reads everything committed since the last one). The history reader `onNotify` calls is
/// therefore confined to that queue.
///
/// When the connection is lost (the server restarted, the backend was terminated, the network
/// dropped) the listener reconnects after 0.1 s, doubling the delay up to 2 s while attempts
/// fail, and back to 0.1 s after one succeeds; once listening again it runs `onNotify` to catch
/// up with whatever was committed meanwhile (the reader resumes from its token, or re-fetches
/// when the history it needed was pruned). An `onNotify` that throws (a read that lost its
/// connection) is retried the same way. Each reconnection attempt that fails is told to
/// `onReconnectFailure` (on the queue) with its error, so the failure is seen while the
/// listener keeps trying.
final class PostgreSQLListener: @unchecked Sendable {
    // `waiter`, `retryDelay` and `generation` are confined to `queue`
    // ("Quarry.PostgreSQLListener <url>"); `cancelled` and `scheduled` are Mutexes.

    /// The serial queue `onNotify`, the (re)connections and the clean-up run on.
    let queue: DispatchQueue
    private let pool: PostgreSQLConnectionPool
    private let channel: String
    private let onNotify: @Sendable () throws -> Void
    private let onReconnectFailure: @Sendable (any Error) -> Void
    private let onQueue = DispatchSpecificKey<Bool>()
    private let cancelled = Mutex(false)
    /// Whether a run of `onNotify` is scheduled and has not started: later notifications join it.
    private let scheduled = Mutex(false)
    /// The thread waiting on the current connection (`nil` while reconnecting).
    private var waiter: PostgreSQLNotificationWaiter?
    /// The delay before the next reconnection (or retry) attempt.
    private var retryDelay = PostgreSQLListener.firstDelay
    /// Counts connections made, so the close of a replaced one is told from the current one's.
    private var generation = 0
    /// Told on the listener's queue when the connection is lost and when listening resumes
    /// (tests wait on these instead of sleeping).
    let connectionEvents = Mutex<(@Sendable (ConnectionEvent) -> Void)?>(nil)

    /// A change of the listener's connection.
    enum ConnectionEvent: Sendable, Equatable {
        /// The connection closed; reconnection attempts follow.
        case lost
        /// A new connection listens again (its catch-up read runs next).
        case listening
    }

    /// The first delay after a lost connection.
    static let firstDelay = 0.1
    /// The longest delay between attempts.
    static let longestDelay = 2.0

    /// Starts listening on `channel` of the store at `url`; returns once `LISTEN` is in effect
    /// (a commit after that is always noticed), with one run of `onNotify` scheduled to catch
    /// up with commits made between the caller's reader starting and `LISTEN`.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` when the first connection fails.
    init(url: PostgreSQLStoreURL, channel: String, onNotify: @escaping @Sendable () throws -> Void,
         onReconnectFailure: @escaping @Sendable (any Error) -> Void = { _ in }) throws {
        self.pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        self.channel = channel
        self.onNotify = onNotify
        self.onReconnectFailure = onReconnectFailure
        self.queue = DispatchQueue(label: "Quarry.PostgreSQLListener \(url)")
        queue.setSpecific(key: onQueue, value: true)
        // The pool's check connection is not needed: the listener makes its own.
        pool.close()
        try queue.sync { try listen() }
        queue.async { self.runOnNotify() }
    }

    deinit { pool.close() }

    /// Stops listening and closes the connection. `onNotify` does not run after this returns
    /// (it waits for a run or a reconnection attempt in progress); called on the listener's
    /// queue (from `onNotify` itself), it returns at once.
    func cancel() {
        guard !cancelled.withLock({ c in defer { c = true }; return c }) else { return }
        let stop: @Sendable () -> Void = { [self] in
            waiter?.stop()
            waiter = nil
        }
        if DispatchQueue.getSpecific(key: onQueue) == true { stop() } else { queue.sync(execute: stop) }
    }

    private var isCancelled: Bool { cancelled.withLock { $0 } }

    /// On `queue`: connects, `LISTEN`s (in effect once it returns), and starts the thread that
    /// waits for notifications on the connection.
    private func listen() throws {
        let connection = try pool.connect()
        do {
            try connection.execute("LISTEN \(sqlIdentifier(channel))")
        } catch {
            throw pool.error(error)
        }
        generation += 1
        let current = generation
        // The wait thread's handlers only hop to `queue`, holding the listener weakly: the
        // listener (and the waiter) are released on `queue` or by their owner, never there.
        let queue = self.queue
        let listener = WeakListener(self)
        waiter = try PostgreSQLNotificationWaiter(
            connection: connection, label: queue.label,
            onNotify: { _ in queue.async { listener.value?.notified() } },
            onLost: { _ in queue.async { listener.value?.connectionClosed(generation: current) } })
    }

    /// On `queue`, for a notification: one run of `onNotify` for a burst.
    private func notified() {
        guard !isCancelled, !scheduled.withLock({ s in defer { s = true }; return s }) else { return }
        queue.async { self.runOnNotify() }
    }

    /// On `queue`: reads what was committed; a failure is retried after the backoff delay.
    private func runOnNotify() {
        scheduled.withLock { $0 = false }
        guard !isCancelled else { return }
        do {
            try onNotify()
            retryDelay = Self.firstDelay
        } catch {
            retry { $0.runOnNotify() }
        }
    }

    /// On `queue`: the connection closed; reconnect unless cancelled or already replaced.
    private func connectionClosed(generation closed: Int) {
        guard !isCancelled, closed == generation else { return }
        waiter?.stop()
        waiter = nil
        connectionEvents.withLock { $0 }?(.lost)
        retry { $0.reconnect() }
    }

    /// On `queue`: one reconnection attempt; once listening, catches up.
    private func reconnect() {
        guard !isCancelled, waiter == nil else { return }
        do {
            try listen()
        } catch {
            onReconnectFailure(error)
            retry { $0.reconnect() }
            return
        }
        retryDelay = Self.firstDelay
        connectionEvents.withLock { $0 }?(.listening)
        runOnNotify()
    }

    /// On `queue`: runs `attempt` after the current delay, and doubles it (up to the longest).
    private func retry(_ attempt: @escaping @Sendable (PostgreSQLListener) -> Void) {
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.longestDelay)
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, !self.isCancelled else { return }
            attempt(self)
        }
    }
}

/// A weak reference to a listener for the wait thread's handlers, read only on the listener's
/// queue (so the listener is never retained, nor released, on the wait thread).
private final class WeakListener: @unchecked Sendable {
    // `value` is written once in `init` and read only on the listener's queue.
    weak var value: PostgreSQLListener?

    init(_ value: PostgreSQLListener) { self.value = value }
}
