import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A PostgreSQL stack whose history another process (`psql`) drops while it listens: the
/// failed read is a value its observers see, kept as ``PersistentStack/lastRemoteError``.
@Suite("PostgreSQL remote failures: another process drops the history a listening stack reads",
       .serialized, .enabled(if: PostgreSQLTestServer.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/psql"),
                             "needs QUARRY_TEST_POSTGRES_URL and psql at /usr/bin/psql"))
struct PostgreSQLRemoteFailureTests {
    @Test("the history tables dropped and the channel notified by psql: observers see the failure, lastRemoteError names it")
    func historyDroppedByAnotherProcess() async throws {
        try await PostgreSQLRemoteChangeTests.withFreshStore { url in
            try RemoteChangeTests.seed(url, tickers: 2)
            let stack = try PostgreSQLRemoteChangeTests.stack(url)
            let store = try #require(stack.mainContext.coordinator.store as? PostgreSQLStore)
            let server = try #require(PostgreSQLTestServer.url)
            let schema = sqlIdentifier(store.storeURL.schema)
            let sql = """
                DROP TABLE \(schema)."Z_HISTORYCHANGE", \(schema)."Z_HISTORYTRANSACTION";
                NOTIFY \(sqlIdentifier(store.notificationChannel));
                """
            let changes = try await remoteChanges(of: stack, awaiting: "the failure to read the history dropped by psql", after: {
                let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/psql"), [server, "-v", "ON_ERROR_STOP=1", "-c", sql])
                try #require(result.status == 0, "psql failed: \(result.standardError)")
            }, until: { stack.lastRemoteError != nil })
            let failed = try #require(changes.last)
            let error = try #require(failed.error)
            guard case .historyUnreadable(let name, let reason) = error else {
                Issue.record("expected an unreadable history, got \(error)")
                return
            }
            #expect(name == store.storeURL.description, "the store is named by its URL, without a password")
            #expect(reason.contains("Z_HISTORY"), "the reason names a missing table: \(reason)")
            #expect(stack.lastRemoteError == error)
            #expect(!failed.isExternal && failed.tokens == nil, "nothing was merged: the read is retried")
        }
    }
}
