import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Watching SQLite stores for other connections' commits takes one inotify instance a process,
/// and a watcher that cannot have inotify polls.
@Suite("Store watching: one inotify instance a process, polling when the system has none left", .serialized)
struct FolderWatchTests {
    /// The inotify instances this process holds (its descriptors that link to one).
    static func inotifyInstances() throws -> Int {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "anon_inode:inotify" }.count
    }

    @Test("130 watching stacks, more than Linux's 128 instances a user, hold one instance and all follow their stores")
    func manyStacksShareOneInstance() async throws {
        let directories = (0..<130).map { _ in TemporaryDirectory() }
        var stacks: [PersistentStack] = []
        for directory in directories {
            let url = directory.file("store.sqlite")
            try RemoteChangeTests.seed(url, tickers: 1)
            stacks.append(try RemoteChangeTests.stack(url))
        }
        #expect(stacks.allSatisfy { $0.watchesRemoteChanges })
        #expect(try Self.inotifyInstances() <= 1, "every watcher shares the process's one instance")
        // Two stores in one folder share its watch; each still hears only its own file.
        let shared = directories[0]
        try RemoteChangeTests.seed(shared.file("second.sqlite"), tickers: 1)
        let second = try RemoteChangeTests.stack(shared.file("second.sqlite"))
        for (index, directory) in [(0, directories[0]), (129, directories[129])] {
            let writer = try RemoteChangeTests.stack(directory.file("store.sqlite"))
            let change = try await nextRemoteChange(of: stacks[index]) {
                try RemoteChangeTests.saveTicker("N\(index)", price: 1, in: writer.importerContext())
            }
            #expect(!change.isExternal && change.error == nil)
        }
        let change = try await nextRemoteChange(of: second) {
            let writer = try RemoteChangeTests.stack(shared.file("second.sqlite"))
            try RemoteChangeTests.saveTicker("S", price: 2, in: writer.importerContext())
        }
        #expect(!change.isExternal && change.error == nil)
    }

    @Test("a polling watcher delivers another connection's save as a merge and sqlite3's write as an external change",
          .enabled(if: SQLiteShell.isInstalled, "needs the sqlite3 shell at /usr/bin/sqlite3"))
    func pollingWatcherFollowsCommits() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try RemoteChangeTests.seed(url, tickers: 2)
        let store = try SQLiteStore(url: url, model: RemoteChangeTests.model)
        let (stream, continuation) = AsyncStream<RemoteCommit>.makeStream()
        let feed = try SQLiteChangeFeed(store: store, storeURL: url, origin: UUID(), watchesFolder: false) { continuation.yield($0) }
        defer { feed.cancel() }
        #expect(feed.polls)
        var options = PersistentStack.Options()
        options.storeURL = url
        options.watchesRemoteChanges = false
        let writer = try PersistentStack(model: RemoteChangeTests.model, options: options)
        try RemoteChangeTests.saveTicker("N", price: 9, in: writer.importerContext())
        let merged = try await withDeadline(defaultEventDeadline, awaiting: "the polling watcher to deliver the writer's save") {
            for await commit in stream { if case .merge(let changes, _) = commit { return changes } }
            throw CancellationError()
        }
        #expect(merged.inserted.count == 1)
        try SQLiteShell.run(url, "UPDATE Ticker SET price = 5 WHERE symbol = 'T0'")
        try await withDeadline(defaultEventDeadline, awaiting: "the polling watcher to call sqlite3's write external") {
            for await commit in stream { if case .external = commit { return } }
            throw CancellationError()
        }
    }
}
