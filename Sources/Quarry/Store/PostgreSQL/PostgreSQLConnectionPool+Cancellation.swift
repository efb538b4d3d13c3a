#if PostgreSQL
import Foundation
import PostgresNIO

extension PostgreSQLConnection {
    /// Runs `run` (one statement awaited on this connection) so that cancelling the current
    /// ``QueryCancellation`` stops it: a registered handler asks the server to cancel this
    /// connection's backend (`pg_cancel_backend`, sent by the pool's
    /// ``PostgreSQLBackendCanceller`` from a connection of its own), and the statement's
    /// `57014 query_canceled` error becomes ``QueryCancellationError/cancelled``.
    ///
    /// The connection is not given back (this returns only once no cancel for it is in flight),
    /// so a cancel never reaches a later statement or another caller of the pool. Without a
    /// current token, just runs `run`, errors named after the store.
    func cancellable<T>(_ run: () throws -> T) throws -> T {
        guard let cancellation = QueryCancellation.current else {
            do { return try run() } catch { throw pool.error(error) }
        }
        let running = PostgreSQLRunningQuery(backendPID: backendPID)
        let canceller = pool.canceller
        let pool = self.pool
        let registration = cancellation.onCancel { canceller.cancel(running, pool: pool) }
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

/// One statement running under a ``QueryCancellation`` on one backend: what a cancel handler
/// checks so it only cancels while that very statement runs.
///
/// `@unchecked Sendable`: `finished` and `cancelInFlight` are only touched under `condition`'s
/// lock.
final class PostgreSQLRunningQuery: @unchecked Sendable {
    /// The backend the statement runs on.
    let backendPID: Int32
    private let condition = NSCondition()
    private var finished = false
    private var cancelInFlight = false

    init(backendPID: Int32) { self.backendPID = backendPID }

    /// Marks the statement done, after waiting for a cancel being sent for it: once this
    /// returns no cancel for this backend is sent on this statement's behalf.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        while cancelInFlight { condition.wait() }
    }

    /// Calls `send` while the statement is still running, again after a growing pause while
    /// it keeps running: a cancel that reached the server before the statement did is ignored
    /// by the server, so one try is not enough.
    func cancelWhileRunning(_ send: (Int32) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        var pause = 0.02
        while !finished {
            cancelInFlight = true
            condition.unlock()
            send(backendPID)
            condition.lock()
            cancelInFlight = false
            condition.broadcast()
            if finished { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: pause))
            pause = min(pause * 2, 1)
        }
    }
}

/// Sends `pg_cancel_backend` for a pool's cancelled statements, on a serial queue of its own
/// with a connection of its own (made on first use, outside the pool's limit, so cancelling
/// never waits for a busy pool).
///
/// `@unchecked Sendable`: `connection` is only touched on `queue`.
final class PostgreSQLBackendCanceller: @unchecked Sendable {
    private let queue = DispatchQueue(label: "Quarry.PostgreSQL.cancel")
    private var connection: PostgresConnection?
    private var closed = false

    /// Cancels `running` from `queue` (never on the caller's thread: `cancel()` may be called
    /// from a UI thread, which must not wait for the server).
    func cancel(_ running: PostgreSQLRunningQuery, pool: PostgreSQLConnectionPool) {
        queue.async { [self] in
            running.cancelWhileRunning { pid in
                guard !closed else { return }
                do {
                    if connection == nil || connection?.isClosed == true { connection = try pool.connect() }
                    var binds = PostgresBindings()
                    binds.append(pid)
                    _ = try connection?.query(PostgresQuery(unsafeSQL: "SELECT pg_cancel_backend($1)", binds: binds),
                                              logger: connection!.logger).wait()
                } catch {
                    // Nothing to report to: the statement then ends on its own; the next try
                    // makes a new connection.
                    try? connection?.close().wait()
                    connection = nil
                }
            }
        }
    }

    /// Closes the canceller's connection (the pool is closing) once the cancels queued before
    /// are sent; asynchronous, since the pool may be released on `queue` itself.
    func close() {
        queue.async { [self] in
            closed = true
            // Closing a connection being discarded: nothing to lose if it fails.
            try? connection?.close().wait()
            connection = nil
        }
    }
}
#endif
