import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A read on the remote path that fails is a value: the stack's remote-change observers get it
/// as ``RemoteChange/error`` and the stack keeps it as ``PersistentStack/lastRemoteError``.
@Suite("Remote failures: another process makes an SQLite store's history unreadable while a stack watches it",
       .serialized, .enabled(if: SQLiteShell.isInstalled,
                             "needs the sqlite3 shell at /usr/bin/sqlite3"))
struct RemoteFailureTests {
    /// In the sqlite3 shell: drops the history's change table and commits one more history
    /// transaction marked as a Quarry save (the save count in `user_version` advanced), so the
    /// watching stack reads that history, and cannot.
    static func dropHistoryChanges(of url: URL) throws {
        let saveCount = try #require(Int(try SQLiteShell.run(url, "PRAGMA user_version")))
        try SQLiteShell.run(url, HistoryVandal.dropChangesScript(saveCount: saveCount))
    }

    /// A store in `directory` seeded with two tickers, a stack watching it, and the remote
    /// changes that stack saw until the failure, after `dropHistoryChanges(of:)`.
    static func failedStack(in directory: TemporaryDirectory) async throws -> (url: URL, stack: PersistentStack, changes: [RemoteChange]) {
        let url = directory.file("store.sqlite")
        try RemoteChangeTests.seed(url, tickers: 2)
        let stack = try RemoteChangeTests.stack(url)
        #expect(stack.lastRemoteError == nil)
        let changes = try await remoteChanges(of: stack, awaiting: "the failure to read the history dropped by sqlite3",
                                              after: { try dropHistoryChanges(of: url) },
                                              until: { stack.lastRemoteError != nil })
        return (url, stack, changes)
    }

    @Test("the history's change table dropped: observers see the failure, lastRemoteError names it, the rows are re-fetched")
    func historyDroppedByAnotherProcess() async throws {
        let directory = TemporaryDirectory()
        let (url, stack, changes) = try await Self.failedStack(in: directory)
        let failed = try #require(changes.last)
        let error = try #require(failed.error)
        guard case .historyUnreadable(let store, let reason) = error else {
            Issue.record("expected an unreadable history, got \(error)")
            return
        }
        #expect(store == url.path)
        #expect(reason.contains("Z_HISTORYCHANGE"), "the reason names the missing table: \(reason)")
        #expect(stack.lastRemoteError == error)
        #expect(failed.isExternal && failed.tokens == nil, "what changed is unknown: the visible results were re-fetched")
        #expect(error.description.contains(url.path))
    }

    @Test("once history reads again, lastRemoteError is nil")
    func recoveryClearsTheError() async throws {
        let directory = TemporaryDirectory()
        let (url, stack, _) = try await Self.failedStack(in: directory)
        // An outside write (no save count advanced) asks only for the newest token, which reads.
        let changes = try await remoteChanges(of: stack, awaiting: "the re-fetch after history reads again",
                                              after: { try SQLiteShell.run(url, "UPDATE Ticker SET price = 5 WHERE symbol = 'T0'") },
                                              until: { stack.lastRemoteError == nil })
        #expect(changes.last?.error == nil && changes.last?.isExternal == true)
        #expect(stack.lastRemoteError == nil)
    }
}
