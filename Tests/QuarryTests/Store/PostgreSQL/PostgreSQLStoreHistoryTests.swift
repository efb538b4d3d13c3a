import Foundation
import Testing
@_spi(Benchmarks) @testable import Quarry
import QuarryTestSupport

@Suite("PostgreSQL store history", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLStoreHistoryTests {
    @Test("a save writes its history rows and notifies the channel with <token>:<origin>, received on another connection")
    func historyAndNotification() async throws {
        let url = try PostgreSQLScratchStore(label: "history").url
        defer { try? PostgreSQLStore.destroy(url: url) }
        let origin = UUID()
        let model = TestModels.tickers()
        let store = try PostgreSQLStore(url: url, model: model, options: .init(historyOrigin: origin))
        defer { store.close() }
        #expect(store.notificationChannel == PostgreSQLStore.channel(schema: url.schema))
        #expect(store.notificationChannel.hasPrefix("quarry_"))
        let sector = model.entity(named: "Sector")!
        var changes = StoreChangeSet()
        changes.inserts = (0..<5).map { PostgreSQLScratchStore.insert(sector, ["name": .string("S\($0)")]) }
        changes.author = "importer"
        let listener = try store.pool.connect()
        // LISTEN has completed once this returns: the notification of the save's commit cannot be missed.
        try listener.execute("LISTEN \(sqlIdentifier(store.notificationChannel))")
        let (notifications, received) = AsyncStream<[PGConnection.Notification]>.makeStream()
        let waiter = try PostgreSQLNotificationWaiter(connection: listener, label: "history test",
                                                      onNotify: { received.yield($0) }, onLost: { _ in received.finish() })
        defer { waiter.stop() }
        let result = try store.save(changes) { _ in .fail }
        let payload = try await nextElement(of: notifications, awaiting: "the save's notification")?.first?.payload
        let token = try #require(result.historyToken)
        #expect(payload == "\(token.value):\(origin.uuidString)")
        #expect(store.lastCommitUptime > 0)

        let found = try store.history(after: nil, limit: nil)
        #expect(found.transactions.map(\.token) == [token])
        #expect(found.transactions.first?.origin == origin && found.transactions.first?.author == "importer")
        #expect(found.transactions.first?.changes.map(\.objectID) == result.changes.inserted)
        #expect(found.transactions.first?.changes.allSatisfy { $0.type == .insert } == true)
        #expect(try store.currentHistoryToken() == token)
    }

    @Test("updates record their changed keys, deletes their tombstones; pruning reports isExpired and keeps the current token")
    func updatesDeletesAndPruning() throws {
        try PostgreSQLScratchStore(label: "prune").withStore { store in
            let id = try PostgreSQLScratchStore.saveSector(store, "A")
            let first = try #require(try store.history(after: nil, limit: nil).transactions.first)
            let base = try #require(try store.snapshots(for: [id])[id])
            let second = try store.save(PostgreSQLScratchStore.renameSector(id, base: base, to: "B")) { _ in .fail }
            var delete = StoreChangeSet()
            delete.deletes = [(id: id, version: 2)]
            let third = try store.save(delete) { _ in .fail }
            let tokens = [first.token] + [second, third].compactMap(\.historyToken)
            #expect(tokens.count == 3 && tokens == tokens.sorted())

            let all = try store.history(after: nil, limit: 2)
            #expect(all.hasMore && all.transactions.count == 2)
            #expect(all.transactions[1].changes == [HistoryChange(objectID: id, type: .update, changedKeys: ["name"])])
            #expect(try store.history(after: tokens[1], limit: nil).transactions.first?.changes.first?.type == .delete)

            #expect(try store.deleteHistory(before: tokens[2]) == 2)
            #expect(try store.history(after: tokens[0], limit: nil).isExpired)
            #expect(try !store.history(after: tokens[1], limit: nil).isExpired)
            #expect(try store.deleteHistory(before: HistoryToken(tokens[2].value + 1)) == 1)
            #expect(try store.currentHistoryToken() == tokens[2])
            #expect(try store.history(after: tokens[2], limit: nil).transactions.isEmpty)
        }
    }

    @Test("the modification token changes with every committed save")
    func modificationTokenChanges() throws {
        try PostgreSQLScratchStore(label: "token").withStore { store in
            let before = try store.modificationToken()
            _ = try PostgreSQLScratchStore.saveSector(store, "A")
            let after = try store.modificationToken()
            #expect(before != after)
            #expect(after?.hasPrefix(store.identifier.uuidString) == true)
        }
    }
}
