import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Stores made before history get it when opened for writing; read-only opens write nothing;
/// migrations keep history; consumers' tokens persist.
@Suite("Persistent history: upgrade, migration, consumers")
struct HistoryUpgradeTests {
    let fixture = HistoryFixture()

    /// Turns the fixture's store into one an older Quarry made: no history tables, no key.
    private func makeOld() throws {
        let store = try fixture.store()
        try HistoryFixture.insertTickers(["OLD"], into: StoreCoordinator(store: store))
        try store.pool.write { db in
            try db.execute(sql: "DROP TABLE Z_HISTORYCHANGE")
            try db.execute(sql: "DROP TABLE Z_HISTORYTRANSACTION")
            try db.execute(sql: "DELETE FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.recordsHistory])
        }
    }

    @Test("a store made before history gets its tables when opened for writing, and records from then on")
    func upgradeOnWritableOpen() throws {
        try makeOld()
        let store = try fixture.store()
        #expect(store.recordsHistory)
        #expect(try store.history(after: nil, limit: nil).transactions.isEmpty)
        try HistoryFixture.insertTickers(["NEW"], into: StoreCoordinator(store: store))
        #expect(try store.history(after: nil, limit: nil).transactions.map(\.changes.count) == [1])
    }

    @Test("a read-only open of an older store writes nothing: no history, file unchanged")
    func readOnlyOpenWritesNothing() throws {
        try makeOld()
        let before = try Data(contentsOf: fixture.url)
        let reader = try fixture.store(readOnly: true)
        #expect(!reader.recordsHistory)
        #expect(try reader.history(after: nil, limit: nil).transactions.isEmpty)
        #expect(try reader.currentHistoryToken() == nil)
        #expect(try reader.pool.read { try $0.tableExists("Z_HISTORYTRANSACTION") } == false)
        #expect(try Data(contentsOf: fixture.url) == before)
    }

    @Test("an older store opened with history off stays without it")
    func upgradeRespectsOptionOff() throws {
        try makeOld()
        let store = try fixture.store(records: false)
        #expect(!store.recordsHistory)
        #expect(try store.pool.read { try $0.tableExists("Z_HISTORYTRANSACTION") } == false)
    }

    @Test("a migration that renumbers entities keeps history and its token sequence")
    func migrationKeepsHistory() throws {
        let ids = try HistoryFixture.insertTickers(["MIG", "RATE"], into: StoreCoordinator(store: try fixture.store()))
        var definition = HistoryFixture.model.definition
        var extra = ModelBuilder()
        extra.entity("Aardvark") { e in e.attribute("x", .string) }
        definition.entities.insert(extra.definition.entities[0], at: 0)
        let t = definition.entities.firstIndex { $0.name == "Ticker" }!
        definition.entities[t].attributes.append(AttributeDescription(name: "isin", type: .string))
        let v2 = try ManagedObjectModel(definition)
        let migrated = try SQLiteStore(url: fixture.url, model: v2, options: .init(migratesAutomatically: true))
        let ticker = v2.entity(named: "Ticker")!
        #expect(ticker.index != HistoryFixture.model.entity(named: "Ticker")!.index)
        let history = try migrated.history(after: nil, limit: nil).transactions
        #expect(history.count == 1)
        #expect(history[0].changes.map(\.objectID) == ids.map { ObjectID(entityIndex: ticker.index, primaryKey: $0.primaryKey) })
        #expect(migrated.recordsHistory)
        let next = try migrated.save({
            var changes = StoreChangeSet()
            changes.inserts = [ObjectChange(id: .temporary(entityIndex: ticker.index), snapshot: Snapshot(defaultsFor: ticker))]
            return changes
        }()) { _ in .fail }
        #expect(next.historyToken == HistoryToken(2))
    }

    @Test("consumer tokens persist across reopening the stack; a read-only stack keeps them in memory")
    func consumerTokens() throws {
        do {
            let stack = try fixture.stack()
            #expect(try stack.lastMergedHistoryToken(consumer: "exporter") == nil)
            try stack.setLastMergedHistoryToken(HistoryToken(42), consumer: "exporter")
            try stack.setLastMergedHistoryToken(HistoryToken(7), consumer: "browser")
        }
        let reopened = try fixture.stack()
        #expect(try reopened.lastMergedHistoryToken(consumer: "exporter") == HistoryToken(42))
        #expect(try reopened.lastMergedHistoryToken(consumer: "browser") == HistoryToken(7))
        try reopened.setLastMergedHistoryToken(nil, consumer: "browser")
        #expect(try reopened.lastMergedHistoryToken(consumer: "browser") == nil)

        let readOnly = try fixture.stack(readOnly: true)
        #expect(try readOnly.lastMergedHistoryToken(consumer: "exporter") == HistoryToken(42))
        try readOnly.setLastMergedHistoryToken(HistoryToken(9), consumer: "viewer")
        #expect(try readOnly.lastMergedHistoryToken(consumer: "viewer") == HistoryToken(9))
        let store = try #require(reopened.writerCoordinator.store as? SQLiteStore)
        #expect(try store.historyConsumerToken("viewer") == nil)
    }

    @Test("each stack writes its own origin on both of its stores; a bare store makes its own")
    func stackOrigin() throws {
        let stack = try fixture.stack()
        let main = stack.mainContext.coordinator.store as? SQLiteStore
        #expect(stack.historyOrigin != nil)
        #expect(main?.historyOrigin == stack.historyOrigin)
        let other = try fixture.stack()
        #expect(other.historyOrigin != stack.historyOrigin)
        #expect(try fixture.store().historyOrigin != fixture.store().historyOrigin)
    }
}
