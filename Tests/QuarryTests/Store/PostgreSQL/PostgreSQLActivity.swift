import Foundation
@testable import Quarry
import QuarryTestSupport

/// Waits for events on the test server, and runs blocking pool calls off the test's executor
/// (used by the PostgreSQL cancellation tests here and in FetchedResults).
enum PostgreSQLActivity {
    /// The sender's statement ended (or was never sent) before it was seen running.
    struct NeverRan: Error, CustomStringConvertible {
        /// The marker looked for.
        let marker: String
        var description: String { "the statement containing \(marker) ended before it was seen running in pg_stat_activity" }
    }

    /// Where the thread sending a statement is: told by the sender, waited for by the test.
    ///
    /// Waiting for the sender first (rather than counting looks at the server) keeps the wait
    /// correct however long the sender takes to be scheduled: under a loaded test run its task
    /// may wait minutes for a thread. `@unchecked Sendable`: `phase` is only touched under
    /// `condition`'s lock.
    final class Sender: @unchecked Sendable {
        private enum Phase { case notYet, sending, ended }
        private let condition = NSCondition()
        private var phase = Phase.notYet

        /// Called just before the statement is sent.
        func sending() { move(to: .sending) }

        /// Called once the sender is done, whether or not it sent the statement (final).
        func ended() { move(to: .ended) }

        private func move(to next: Phase) {
            condition.lock()
            if phase != .ended { phase = next }
            condition.broadcast()
            condition.unlock()
        }

        /// Blocks until the sender is sending or ended; returns whether it has ended.
        fileprivate func waitUntilStarted() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while phase == .notYet { condition.wait() }
            return phase == .ended
        }

        fileprivate var hasEnded: Bool {
            condition.lock()
            defer { condition.unlock() }
            return phase == .ended
        }
    }

    /// Blocks until the statement containing `marker` that `sender` sends is running (state
    /// `active` in `pg_stat_activity` on another session): the event a test cancels on,
    /// instead of a sleep. Waits for `sender` to start, then looks (one round trip each, on a
    /// connection of its own) until the statement is seen or `sender` has ended. Call it
    /// through ``onThread(_:)``, and end what the test started whether or not it succeeded.
    /// - Returns: the running session's backend PID.
    /// - Throws: ``NeverRan`` when the sender ended first; a connection error.
    static func blockUntilRunning(marker: String, sentBy sender: Sender) throws -> Int32 {
        if sender.waitUntilStarted() { throw NeverRan(marker: marker) }
        let pool = try PostgreSQLConnectionPool(url: PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!), maximumConnections: 1)
        defer { pool.close() }
        var binds = PGBindings()
        binds.append("%" + marker + "%")
        return try pool.withConnection { connection in
            while true {
                let rows = try connection.query("""
                    SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()
                    """, binds)
                if let pid = try rows.first?.decode(Int32.self) { return pid }
                if sender.hasEnded { throw NeverRan(marker: marker) }
            }
        }
    }

    /// A statement that runs until cancelled, tagged with `marker` so it can be found.
    static func endlessSleep(marker: String) -> String { "SELECT pg_sleep(3600) /* \(marker) */" }

    /// Runs `body` on a thread of its own (pool calls block), returning its outcome.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { (done: CheckedContinuation<Result<T, any Error>, Never>) in
            Thread.detachNewThread { done.resume(returning: Result { try body() }) }
        }
    }
}
