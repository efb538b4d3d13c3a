#if PostgreSQL
import Foundation
import PostgresNIO
@testable import Quarry
import QuarryTestSupport

/// Waits for events on the test server, and runs blocking pool calls off the test's executor
/// (used by the PostgreSQL cancellation tests here and in FetchedResults).
enum PostgreSQLActivity {
    /// No statement containing the marker was seen running within the checks allowed.
    struct NeverRan: Error, CustomStringConvertible {
        /// The marker looked for.
        let marker: String
        var description: String { "no running statement containing \(marker) was seen in pg_stat_activity" }
    }

    /// Blocks until another session's statement containing `marker` is running (state `active`
    /// in `pg_stat_activity`): the event a test cancels on, instead of a sleep. Each check is one
    /// round trip on a connection of its own; returns the running session's backend PID. Call it
    /// through ``onThread(_:)`` and end what the test started whether or not it succeeded: a
    /// test that throws here leaves its `async let` statements to be awaited forever.
    static func blockUntilRunning(marker: String, checks: Int = 100_000) throws -> Int32 {
        let pool = try PostgreSQLConnectionPool(url: PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!), maximumConnections: 1)
        defer { pool.close() }
        var binds = PostgresBindings()
        binds.append("%" + marker + "%")
        return try pool.withConnection { connection in
            for _ in 0..<checks {
                let rows = try connection.query("""
                    SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()
                    """, binds)
                if let pid = try rows.first?.decode(Int32.self) { return pid }
            }
            throw NeverRan(marker: marker)
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
#endif
