import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// ``QueryCancellation`` on PostgreSQL: a cancel request for the cancelled query only.
@Suite("PostgreSQL query cancellation", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLQueryCancellationTests {
    @Test("a query cancelled while it runs ends with .cancelled; its connection is usable and another query is unaffected")
    func cancelRunningQuery() async throws {
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!)
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 3)
        defer { pool.close() }
        let lock = Int64.random(in: 1...Int64.max)
        let blocker = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { blocker.close() }
        let lockBinds = { () -> PGBindings in
            var b = PGBindings()
            b.append(lock)
            return b
        }()
        let slow = "slow_" + UUID().uuidString
        let other = "other_" + UUID().uuidString
        let cancellation = QueryCancellation()

        // The blocker holds an advisory lock (session-level, on its one connection) so the other
        // query runs, waiting for it, until it is released.
        try blocker.withConnection { try $0.execute("SELECT pg_advisory_lock($1)", lockBinds) }
        let slowSender = PostgreSQLActivity.Sender(), otherSender = PostgreSQLActivity.Sender()
        async let cancelled = PostgreSQLActivity.onThread {
            defer { slowSender.ended() }
            return try cancellation.run {
                try pool.withConnection { connection in
                    slowSender.sending()
                    try connection.execute(PostgreSQLActivity.endlessSleep(marker: slow))
                }
            }
        }
        async let unaffected = PostgreSQLActivity.onThread {
            defer { otherSender.ended() }
            return try pool.withConnection { connection in
                otherSender.sending()
                return try connection.query("SELECT 7::bigint FROM (SELECT pg_advisory_xact_lock($1)) l /* \(other) */", lockBinds)[0].decode(Int.self)
            }
        }
        let running = await PostgreSQLActivity.onThread {
            (try PostgreSQLActivity.blockUntilRunning(marker: slow, sentBy: slowSender),
             try PostgreSQLActivity.blockUntilRunning(marker: other, sentBy: otherSender))
        }
        // Cancelled (and the lock released) even when a wait failed: both queries must end, or
        // awaiting them never returns.
        cancellation.cancel()
        let outcome = await cancelled
        guard case .success((let slowPID, _)) = running else {
            try blocker.withConnection { try $0.execute("SELECT pg_advisory_unlock($1)", lockBinds) }
            _ = await unaffected
            _ = try running.get()
            return
        }
        #expect(throws: QueryCancellationError.cancelled) { try outcome.get() }
        // The only idle connection is the cancelled one: it answers the next query.
        let (pid, one) = try pool.withConnection { c in (c.backendPID, try c.query("SELECT 1::bigint")[0].decode(Int.self)) }
        #expect(pid == slowPID && one == 1)
        try blocker.withConnection { try $0.execute("SELECT pg_advisory_unlock($1)", lockBinds) }
        let result = try await unaffected.get()
        #expect(result == 7)
    }
}
