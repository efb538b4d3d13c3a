import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// Two stacks (two "hosts") on one PostgreSQL store: each save reaches the other through
/// `NOTIFY`/`LISTEN` and history, like another process's commit to an SQLite store.
@Suite("PostgreSQL remote changes: saves on one stack reach every other stack on the database",
       .serialized, .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLRemoteChangeTests {
    static let model = RemoteChangeTests.model

    /// Runs `body` with a store URL in a fresh schema, dropped afterwards.
    static func withFreshStore(_ body: (URL) async throws -> Void) async throws {
        let text = try #require(PostgreSQLTestServer.freshStoreURL(label: "live"))
        let url = try #require(URL(string: text))
        defer { try? PostgreSQLStore.destroy(url: try PostgreSQLStoreURL(parsing: text)) }
        try await body(url)
    }

    /// A stack on `url` (a `postgres://` URL: the store type follows from it).
    static func stack(_ url: URL) throws -> PersistentStack {
        try PersistentStack(model: model, storeURL: url)
    }

    /// A store seeded with `tickers` tickers (by a stack that is gone), stack A writing it and
    /// stack B watching every ticker by price.
    static func writerAndReader(_ url: URL, tickers: Int) async throws
        -> (writer: PersistentStack, reader: PersistentStack, controller: FetchedResultsController, recorder: DiffRecorder) {
        try RemoteChangeTests.seed(url, tickers: tickers)
        let writer = try stack(url)
        let reader = try stack(url)
        let (controller, recorder) = try await MainActor.run { try RemoteChangeTests.watch(reader) }
        return (writer, reader, controller, recorder)
    }

    /// The connection events of `stack`'s listener, from now on.
    static func connectionEvents(of stack: PersistentStack) throws -> AsyncStream<PostgreSQLListener.ConnectionEvent> {
        let feed = try #require(stack.state.withLock { $0.remoteWatch }?.changeFeed as? PostgreSQLChangeFeed)
        let listener = feed.listener
        let (stream, continuation) = AsyncStream<PostgreSQLListener.ConnectionEvent>.makeStream()
        listener.connectionEvents.withLock { $0 = { continuation.yield($0) } }
        return stream
    }

    /// Terminates, from another connection, every backend listening on `stack`'s channel.
    static func terminateListeners(of stack: PersistentStack, url: URL) throws -> Int {
        let store = try #require(stack.mainContext.coordinator.store as? PostgreSQLStore)
        let pool = try PostgreSQLConnectionPool(url: try PostgreSQLStoreURL(parsing: url.absoluteString), maximumConnections: 1)
        defer { pool.close() }
        var binds = PGBindings()
        binds.append("LISTEN \(sqlIdentifier(store.notificationChannel))")
        return try pool.withConnection { connection in
            try connection.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = 'quarry' AND query = $1 AND pid <> pg_backend_pid()
                """, binds).count
        }
    }

    @Test("a stack on a postgres:// URL opens PostgreSQL stores, listens for remote changes and has a history origin")
    func postgreSQLStackListens() async throws {
        try await Self.withFreshStore { url in
            let stack = try Self.stack(url)
            #expect(stack.watchesRemoteChanges)
            #expect(stack.writerCoordinator.store is PostgreSQLStore && stack.mainContext.coordinator.store is PostgreSQLStore)
            #expect(stack.writerCoordinator.store !== stack.mainContext.coordinator.store, "main and writer each have their own store")
            #expect(stack.historyOrigin == (stack.writerCoordinator.store as? PostgreSQLStore)?.historyOrigin)
            #expect(stack.historyStore != nil)
            var options = PersistentStack.Options()
            options.storeURL = url
            options.watchesRemoteChanges = false
            #expect(try !PersistentStack(model: Self.model, options: options).watchesRemoteChanges)
        }
    }

    @Test("another stack's save is merged, not re-fetched: inserts, moves and deletes reach the controller")
    func otherStackSaveIsMerged() async throws {
        try await Self.withFreshStore { url in
            let (writer, reader, controller, recorder) = try await Self.writerAndReader(url, tickers: 4)
            let before = await MainActor.run { reader.mainContext.registeredObjectCount }
            let importer = writer.importerContext()
            let change = try await nextRemoteChange(of: reader) {
                try RemoteChangeTests.moveDeleteAndInsert(in: importer)
            }
            #expect(!change.isExternal && change.tokens != nil)
            #expect(change.storeURL.scheme == "postgres" && change.storeURL.password == nil)
            await MainActor.run {
                #expect(reader.mainContext.registeredObjectCount == before, "no unregistered object was loaded to decide")
                #expect(recorder.items == controller.snapshot.items, "\(recorder.log)")
                #expect(recorder.events == 1 && recorder.resets == 0 && recorder.violations.isEmpty)
                #expect(recorder.log.contains { $0.hasPrefix("insert") } && recorder.log.contains { $0.hasPrefix("delete") })
                #expect(RemoteChangeTests.symbols(controller) == ["T1", "N", "T3", "T0"])
            }
        }
    }

    @Test("a stack's own saves are merged once, in process: its listener skips their history")
    func ownSavesAreSkipped() async throws {
        try await Self.withFreshStore { url in
            let (other, stack, controller, recorder) = try await Self.writerAndReader(url, tickers: 2)
            let seen = Mutex<[RemoteChange]>([])
            let observation = stack.addRemoteChangeObserver { change in seen.withLock { $0.append(change) } }
            defer { observation.cancel() }
            let own = stack.importerContext()
            _ = try await nextMerge(of: stack) { try RemoteChangeTests.saveTicker("OWN", price: 0.5, in: own) }
            let ownToken = try #require(try stack.historyStore?.currentHistoryToken())
            // The other stack's save is noticed after the own one (one channel, in commit order).
            let change = try await nextRemoteChange(of: stack) {
                try RemoteChangeTests.saveTicker("OTHER", price: 7, in: other.importerContext())
            }
            #expect(change.tokens.map { $0.lowerBound > ownToken } == true, "the own transaction is not among the merged ones")
            await MainActor.run {
                #expect(seen.withLock { $0.count } == 1, "the own save was not delivered as a remote change")
                #expect(recorder.events == 2, "one event for the own save, one for the other stack's: \(recorder.log)")
                #expect(recorder.items == controller.snapshot.items)
                #expect(RemoteChangeTests.symbols(controller) == ["T0", "OWN", "T1", "OTHER"])
            }
        }
    }

    @Test("after its connection is terminated server-side, the listener reconnects and catches up with saves made meanwhile")
    func reconnectsAndCatchesUp() async throws {
        try await Self.withFreshStore { url in
            let (writer, reader, controller, recorder) = try await Self.writerAndReader(url, tickers: 2)
            var events = try Self.connectionEvents(of: reader).makeAsyncIterator()
            #expect(try Self.terminateListeners(of: reader, url: url) >= 1)
            #expect(await events.next() == .lost)
            // Saved after the connection was lost: its NOTIFY reaches no listener of `reader`.
            let change = try await nextRemoteChange(of: reader) {
                try RemoteChangeTests.saveTicker("MEANTIME", price: 0.5, in: writer.importerContext())
            }
            #expect(await events.next() == .listening)
            #expect(!change.isExternal)
            await MainActor.run {
                #expect(RemoteChangeTests.symbols(controller) == ["T0", "MEANTIME", "T1"])
                #expect(recorder.items == controller.snapshot.items && recorder.resets == 0)
            }
            // Listening again: a later save arrives through the new connection.
            _ = try await nextRemoteChange(of: reader) {
                try RemoteChangeTests.saveTicker("AFTER", price: 9, in: writer.importerContext())
            }
            await MainActor.run { #expect(RemoteChangeTests.symbols(controller) == ["T0", "MEANTIME", "T1", "AFTER"]) }
        }
    }

    @Test("history pruned behind a PostgreSQL reader reads as external, and reading resumes after the newest transaction")
    func prunedHistoryIsExternal() async throws {
        try await Self.withFreshStore { url in
            let writer = try Self.stack(url)
            try RemoteChangeTests.saveTicker("T", price: 0, in: writer.importerContext())
            let store = try PostgreSQLStore(url: try PostgreSQLStoreURL(parsing: url.absoluteString), model: Self.model)
            defer { store.close() }
            let reader = try RemoteHistoryReader(store: store, origin: UUID())
            let importer = writer.importerContext()
            try RemoteChangeTests.reprice([1.0, 2.0], in: importer)
            let newest = try #require(try store.currentHistoryToken())
            try store.deleteHistory(before: newest)
            guard case .external = try reader.nextCommit() else { Issue.record("expected a re-fetch"); return }
            #expect(reader.lastToken == newest)
        }
    }

    @Test("destroyAndSetUp drops the schema and sets up an empty store that is watched again")
    func destroyAndSetUpDropsTheSchema() async throws {
        try await Self.withFreshStore { url in
            let stack = try Self.stack(url)
            try RemoteChangeTests.saveTicker("GONE", price: 1, in: stack.importerContext())
            try stack.destroyAndSetUp()
            let count = try stack.mainContext.performAndWait { try stack.mainContext.count(ofEntity: "Ticker") }
            #expect(count == 0, "the store was dropped and made again, empty")
            #expect(stack.watchesRemoteChanges)
        }
    }
}
