import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

/// The status line's "remote changes: …" error lasts as long as the remote path fails: once
/// another connection's commit is read again (the stack's ``PersistentStack/lastRemoteError``
/// cleared), the browser clears it by itself, not at the next key; a message shown since stays.
@MainActor
@Suite("Browser: a recovered remote path clears its error from the status line",
       .serialized, .enabled(if: SQLiteShell.isInstalled,
                             "needs the sqlite3 shell at /usr/bin/sqlite3"))
struct RemoteErrorMessageTests {
    /// The store's save count (`PRAGMA user_version`).
    static func saveCount(_ url: URL) throws -> Int {
        try #require(Int(try SQLiteShell.run(url, "PRAGMA user_version")))
    }

    /// Runs `write`, then waits (without sleeping) for the first remote change of `stack` that
    /// satisfies `wanted` (checked on the main queue, as the change is announced).
    static func change(of stack: PersistentStack, awaiting what: String, after write: () throws -> Void,
                       where wanted: @escaping @MainActor @Sendable (RemoteChange) -> Bool) async throws -> RemoteChange {
        let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
        let token = stack.addRemoteChangeObserver { change in
            if MainActor.assumeIsolated({ wanted(change) }) { continuation.yield(change) }
        }
        defer { token.cancel() }
        try write()
        return try #require(try await nextElement(of: stream, awaiting: what))
    }

    /// A browser whose stack failed to read the history that sqlite3 made unreadable (see
    /// ``HistoryVandal``), with the error on its status line; and the SQL that makes the
    /// history's change table again.
    static func failedBrowser() async throws -> (fixture: BrowserFixture, store: URL, changeTable: String) {
        let f = try BrowserFixture()
        let url = f.directory.file("browse.sqlite")
        let changeTable = try SQLiteShell.run(url, "SELECT sql || ';' FROM sqlite_master WHERE tbl_name = 'Z_HISTORYCHANGE' AND sql IS NOT NULL")
        try #require(changeTable.contains("CREATE TABLE"))
        let count = try saveCount(url)
        _ = try await change(of: f.stack, awaiting: "the failure to read the history dropped by sqlite3",
                             after: { try SQLiteShell.run(url, HistoryVandal.dropChangesScript(saveCount: count)) },
                             where: { $0.error != nil })
        let bottom = f.screen().suffix(3).joined(separator: " ")
        #expect(bottom.contains("remote changes: cannot read the history"), "\(bottom)")
        return (f, url, changeTable)
    }

    /// In the sqlite3 shell, one transaction marked as a Quarry save (the save count advanced)
    /// that makes the history's change table again and records a transaction with no change:
    /// the stack reads history again, and merges a commit of another connection.
    static func repairHistory(of url: URL, changeTable: String, watchedBy stack: PersistentStack) async throws -> RemoteChange {
        let count = try saveCount(url)
        let script = """
            BEGIN;
            \(changeTable)
            INSERT INTO Z_HISTORYTRANSACTION (Z_TIMESTAMP, Z_AUTHOR, Z_ORIGIN, Z_PROCESS) VALUES (0, 'repair', '\(UUID().uuidString)', 0);
            PRAGMA user_version = \(count + 1);
            COMMIT;
            """
        return try await change(of: stack, awaiting: "the commit read after the history was repaired",
                                after: { try SQLiteShell.run(url, script) },
                                where: { _ in stack.lastRemoteError == nil })
    }

    @Test("the error goes once another connection's commit is read again")
    func recoveryClearsTheError() async throws {
        let (f, url, changeTable) = try await Self.failedBrowser()
        let recovered = try await Self.repairHistory(of: url, changeTable: changeTable, watchedBy: f.stack)
        #expect(recovered.error == nil && !recovered.isExternal, "a merge, not a re-fetch: \(recovered)")
        #expect(f.stack.lastRemoteError == nil)
        let screen = f.screen()
        #expect(!screen.contains(text: "remote changes:"), "\(screen.suffix(3))")
        #expect(!screen.contains(text: "external change"))
        #expect(screen[39].contains("row 1/30"))
    }

    @Test("the same failure read again re-fetches without taking the error off the status line")
    func repeatedFailureKeepsTheError() async throws {
        let (f, url, _) = try await Self.failedBrowser()
        let count = try Self.saveCount(url)
        // A commit marked as a Quarry save: the history is read again, and fails the same way.
        let again = try await Self.change(of: f.stack, awaiting: "the same failure, read again", after: {
            _ = try SQLiteShell.run(url, "BEGIN; UPDATE Ticker SET price = 5 WHERE Z_PK = 1; PRAGMA user_version = \(count + 1); COMMIT;")
        }, where: { $0.isFollowUp })
        #expect(again.isExternal && again.error == nil, "\(again)")
        #expect(f.stack.lastRemoteError != nil, "the failure stands")
        let bottom = f.screen().suffix(3).joined(separator: " ")
        #expect(bottom.contains("remote changes: cannot read the history") && !bottom.contains("external change"), "\(bottom)")
    }

    @Test("a message shown since the error stays when the path recovers")
    func laterMessageStays() async throws {
        let (f, url, changeTable) = try await Self.failedBrowser()
        f.type("zq")  // not a z command: an error message of the browser's own
        #expect(f.screen()[39].contains("zq does nothing"))
        _ = try await Self.repairHistory(of: url, changeTable: changeTable, watchedBy: f.stack)
        #expect(f.stack.lastRemoteError == nil)
        #expect(f.screen()[39].contains("zq does nothing"))
    }
}
