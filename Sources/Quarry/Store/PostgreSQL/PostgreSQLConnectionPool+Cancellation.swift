import Foundation

extension PostgreSQLConnection {
    /// Runs `run` (one statement on this connection) so that cancelling the current
    /// ``QueryCancellation`` stops it: a registered handler sends libpq's cancel request for
    /// this connection (``PGConnection/cancel()``, from the pool's ``PostgreSQLBackendCanceller``),
    /// and the statement's `57014 query_canceled` error becomes
    /// ``QueryCancellationError/cancelled``.
    ///
    /// The connection is not given back (this returns only once no cancel for it is in flight),
    /// so a cancel never reaches a later statement or another caller of the pool. Without a
    /// current token, just runs `run`, errors named after the store.
    func cancellable<T>(_ run: () throws -> T) throws -> T {
        guard let cancellation = QueryCancellation.current else {
            do { return try run() } catch { throw pool.error(error) }
        }
        let running = PostgreSQLRunningQuery(connection: connection)
        let canceller = pool.canceller
        let registration = cancellation.onCancel { canceller.cancel(running) }
        defer {
            registration.remove()
            running.finish()
        }
        try cancellation.checkCancelled()
        do {
            if let hook = pool.beforeCancellableQuery.withLock({ $0 }) { try hook(connection) }
            return try run()
        } catch {
            let mapped = pool.error(error)
            if cancellation.isCancelled, case StoreError.postgreSQL(_, "57014", _) = mapped {
                throw QueryCancellationError.cancelled
            }
            throw mapped
        }
    }
}

/// One statement running under a ``QueryCancellation`` on one connection: what a cancel
/// handler checks so it only cancels while that very statement runs.
///
/// `@unchecked Sendable`: `finished` and `cancelInFlight` are only touched under `condition`'s
/// lock; `connection` is only used for its thread-safe ``PGConnection/cancel()``.
final class PostgreSQLRunningQuery: @unchecked Sendable {
    /// The connection the statement runs on.
    let connection: PGConnection
    private let condition = NSCondition()
    private var finished = false
    private var cancelInFlight = false

    init(connection: PGConnection) { self.connection = connection }

    /// Marks the statement done, after waiting for a cancel being sent for it: once this
    /// returns no cancel for this connection is sent on this statement's behalf.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        while cancelInFlight { condition.wait() }
    }

    /// Sends the cancel request while the statement is still running, again after a growing
    /// pause while it keeps running: a cancel that reached the server before the statement did
    /// is ignored by the server, so one try is not enough.
    func cancelWhileRunning() {
        condition.lock()
        defer { condition.unlock() }
        var pause = 0.02
        while !finished {
            cancelInFlight = true
            condition.unlock()
            // Not sent (the server unreachable): the statement then ends on its own, or with
            // its connection; the next round tries again.
            connection.cancel()
            condition.lock()
            cancelInFlight = false
            condition.broadcast()
            if finished { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: pause))
            pause = min(pause * 2, 1)
        }
    }
}

/// Sends the cancel requests of a pool's cancelled statements on a serial queue of its own:
/// `cancel()` may be called from a UI thread, which must not wait for the server.
final class PostgreSQLBackendCanceller: Sendable {
    private let queue = DispatchQueue(label: "Quarry.PostgreSQL.cancel")

    /// Cancels `running` from the canceller's queue.
    func cancel(_ running: PostgreSQLRunningQuery) {
        queue.async { running.cancelWhileRunning() }
    }
}
