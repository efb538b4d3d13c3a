import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Every kind of save that reaches a SQLite store appends exactly one history transaction,
/// with one change per object it inserted, updated or deleted.
@Suite("Persistent history: what saves record")
struct HistoryRecordingTests {
    let fixture = HistoryFixture()

    @Test("inserts, updates and deletes each append one transaction with a change per object")
    func insertUpdateDelete() throws {
        let store = try fixture.store()
        let coordinator = StoreCoordinator(store: store)
        let ids = try HistoryFixture.insertTickers(["AAA", "BBB"], into: coordinator)
        try HistoryFixture.edit(coordinator) { c in
            try c.existingObject(with: ids[0]).setValues(["price": .double(2), "name": .string("Alpha")])
        }
        try HistoryFixture.edit(coordinator) { c in c.delete(try c.existingObject(with: ids[1])) }

        let found = try store.history(after: nil, limit: nil)
        #expect(!found.isExpired && !found.hasMore)
        #expect(found.transactions.map(\.changes.count) == [2, 1, 1])
        #expect(found.transactions[0].changes.map(\.type) == [.insert, .insert])
        #expect(Set(found.transactions[0].changes.map(\.objectID)) == Set(ids))
        #expect(found.transactions[1].changes == [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["name", "price"])])
        let delete = found.transactions[2].changes[0]
        #expect(delete.objectID == ids[1] && delete.type == .delete)
        #expect(delete.tombstone == ["symbol": .string("BBB"), "price": .double(1)])
        #expect(try store.currentHistoryToken() == found.transactions[2].token)
    }

    @Test("a save's result carries the token of the transaction it appended")
    func saveResultCarriesToken() throws {
        let store = try fixture.store()
        let entity = store.model.entity(named: "Ticker")!
        var snapshot = Snapshot(defaultsFor: entity)
        snapshot.values[entity.attributeIndex("symbol")!] = .string("TOK")
        var changes = StoreChangeSet()
        changes.inserts = [ObjectChange(id: .temporary(entityIndex: entity.index), snapshot: snapshot)]
        let first = try store.save(changes) { _ in .fail }
        let second = try store.save(changes) { _ in .fail }
        #expect(first.historyToken != nil)
        #expect(second.historyToken! > first.historyToken!)
        #expect(try store.history(after: first.historyToken, limit: nil).transactions.map(\.token) == [second.historyToken!])
    }

    @Test("author is the context's name, else the process label; origin and timestamp are the saver's")
    func authorOriginTimestamp() throws {
        let origin = UUID()
        let store = try fixture.store(origin: origin)
        let coordinator = StoreCoordinator(store: store)
        let before = Date()
        try HistoryFixture.insertTickers(["NAMED"], into: coordinator, name: "nightly import")
        try HistoryFixture.insertTickers(["ANON"], into: coordinator, name: nil)
        let after = Date()
        let transactions = try store.history(after: nil, limit: nil).transactions
        #expect(transactions.map(\.author) == ["nightly import", HistoryAuthor.processLabel])
        #expect(HistoryAuthor.processLabel.hasSuffix("[\(ProcessInfo.processInfo.processIdentifier)]"))
        #expect(transactions.allSatisfy { $0.origin == origin && $0.processID == ProcessInfo.processInfo.processIdentifier })
        #expect(transactions.allSatisfy { $0.timestamp >= before.addingTimeInterval(-0.001) && $0.timestamp <= after.addingTimeInterval(0.001) })
    }

    @Test("to-many changes record the relationship as a changed key of the objects on both sides")
    func toManyChanges() throws {
        let store = try fixture.store()
        let coordinator = StoreCoordinator(store: store)
        let ticker = try HistoryFixture.insertTickers(["REL"], into: coordinator)[0]
        var tag: ObjectID?
        try HistoryFixture.edit(coordinator) { c in
            let t = try c.insertObject(entityName: "Tag")
            try t.setValue(.string("tech"), forKey: "label")
            try c.existingObject(with: ticker).add(t, toKey: "tags")
            tag = t.objectID
        }
        let last = try store.history(after: nil, limit: nil).transactions.last!
        let update = last.changes.first { $0.objectID == ticker }
        #expect(update?.type == .update && update?.changedKeys == ["tags"])
        #expect(last.changes.contains { $0.type == .insert && $0.objectID.entityIndex == store.model.entity(named: "Tag")!.index })
        _ = tag
    }

    @Test("a conflict resolution's write is recorded as an update with the properties it changed")
    func conflictResolutionIsAnUpdate() throws {
        let store = try fixture.store()
        let other = try fixture.store()
        let id = try HistoryFixture.insertTickers(["CON"], into: StoreCoordinator(store: store))[0]
        let entity = store.model.entity(named: "Ticker")!
        let price = entity.attributeIndex("price")!, name = entity.attributeIndex("name")!
        var base = Snapshot(defaultsFor: entity)
        base.values[entity.attributeIndex("symbol")!] = .string("CON")
        base.values[price] = .double(1)
        base.version = 1
        // The other store moves the row to version 2 first.
        var first = base
        first.values[name] = .string("Other")
        var mask = PropertyMask(); mask.insert(name)
        var changes = StoreChangeSet()
        changes.updates = [ObjectChange(id: id, snapshot: first, committed: base, changed: mask)]
        _ = try other.save(changes) { _ in .fail }
        // This store's update from version 1 conflicts; the resolution writes its snapshot.
        var mine = base
        mine.values[price] = .double(9)
        var priceMask = PropertyMask(); priceMask.insert(price)
        changes.updates = [ObjectChange(id: id, snapshot: mine, committed: base, changed: priceMask)]
        let result = try store.save(changes) { conflict in .write(conflict.objectSnapshot!) }
        #expect(result.historyToken != nil)
        let last = try store.history(after: nil, limit: nil).transactions.last!
        #expect(last.token == result.historyToken)
        #expect(last.changes.count == 1 && last.changes[0].type == .update)
        #expect(Set(last.changes[0].changedKeys).isSuperset(of: ["price", "name"]))
    }

    @Test("a creator context's save reaches the store through main and is recorded once")
    @MainActor
    func creatorContextSave() throws {
        let stack = try fixture.stack()
        let creator = stack.creatorContext()
        let object = try creator.insertObject(entityName: "Ticker")
        try object.setValues(["symbol": .string("CRE"), "price": .double(3)])
        try creator.save()
        let store = try #require(stack.historyStore)
        let transactions = try store.history(after: nil, limit: nil).transactions
        #expect(transactions.count == 1)
        #expect(transactions.first?.changes.map(\.type) == [.insert])
        #expect(transactions.first?.origin == stack.historyOrigin)
    }

    @Test("a batch insert records one transaction with an insert per row")
    func batchInsert() throws {
        let store = try fixture.store()
        let coordinator = StoreCoordinator(store: store)
        var request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"])
        for i in 0..<50 { request.append([.string("B\(i)"), .double(Double(i))]) }
        let saved = try coordinator.batchInsert(request)
        let transactions = try store.history(after: nil, limit: nil).transactions
        #expect(transactions.count == 1)
        #expect(transactions[0].changes.map(\.objectID) == saved.inserted)
        #expect(transactions[0].changes.allSatisfy { $0.type == .insert })
    }

    @Test("a run of inserts with consecutive keys is one history row, read back as one change per object")
    func insertRunsAreCompact() throws {
        let store = try fixture.store()
        let coordinator = StoreCoordinator(store: store)
        var ids: [ObjectID] = []
        try HistoryFixture.edit(coordinator) { c in
            for i in 0..<3 {
                let t = try c.insertObject(entityName: "Ticker")
                try t.setValues(["symbol": .string("R\(i)")])
                let s = try c.insertObject(entityName: "Sector")
                try s.setValue(.string("S\(i)"), forKey: "name")
            }
            for i in 3..<100 {
                try c.insertObject(entityName: "Ticker").setValues(["symbol": .string("R\(i)")])
            }
        }
        let changes = try #require(try store.history(after: nil, limit: nil).transactions.first).changes
        ids = changes.map(\.objectID)
        #expect(changes.count == 103 && changes.allSatisfy { $0.type == .insert })
        #expect(Set(ids).count == 103)
        let rows = try HistoryFixture.rawCounts(store)
        #expect(rows.changes < 10, "100 tickers and 3 sectors in few runs, not one row each (\(rows.changes) rows)")
        let stored = try store.pool.read { try Int.fetchOne($0, sql: "SELECT SUM(Z_COUNT) FROM Z_HISTORYCHANGE") }
        #expect(stored == 103)
    }

    @Test("updates and deletes of consecutive keys are stored as runs and read back one change per object")
    func updateAndDeleteRuns() throws {
        let store = try fixture.store()
        let coordinator = StoreCoordinator(store: store)
        let ids = try HistoryFixture.insertTickers((0..<200).map { "U\($0)" }, into: coordinator).sorted()
        let before = try HistoryFixture.rawCounts(store)
        try HistoryFixture.edit(coordinator) { c in
            for (n, id) in ids.enumerated() {
                // Two kinds of change alternate in blocks of 50: four runs.
                try c.existingObject(with: id).setValue(n / 50 % 2 == 0 ? .double(9) : .string("n"), forKey: n / 50 % 2 == 0 ? "price" : "name")
            }
        }
        try HistoryFixture.edit(coordinator) { c in for id in ids[10..<110] { c.delete(try c.existingObject(with: id)) } }
        let after = try HistoryFixture.rawCounts(store)
        let found = try store.history(after: nil, limit: nil).transactions
        #expect(found.map(\.changes.count) == [200, 200, 100])
        #expect(found[1].changes.map(\.objectID) == ids)
        #expect(found[1].changes[0].changedKeys == ["price"] && found[1].changes[50].changedKeys == ["name"])
        #expect(found[2].changes.map(\.objectID) == Array(ids[10..<110]) && found[2].changes.allSatisfy { $0.type == .delete })
        // Price and name changes alternate in four blocks: four rows. The fixture's tickers keep
        // tombstone values (symbol, price), so each delete keeps its own row.
        #expect(after.changes - before.changes == 4 + 100, "\(after.changes - before.changes) rows")
    }

    @Test("a store made with history off records nothing, also for stacks opened later with it on")
    func optionOffRecordsNothing() throws {
        let store = try fixture.store(records: false)
        #expect(!store.recordsHistory)
        let result = try HistoryFixture.insertTickers(["OFF"], into: StoreCoordinator(store: store))
        #expect(result.count == 1)
        #expect(try store.history(after: nil, limit: nil).transactions.isEmpty)
        #expect(try store.currentHistoryToken() == nil)
        let later = try fixture.store(records: true)
        #expect(!later.recordsHistory)
        try HistoryFixture.insertTickers(["OFF2"], into: StoreCoordinator(store: later))
        #expect(try later.history(after: nil, limit: nil).transactions.isEmpty)
        #expect(try later.pool.read { try $0.tableExists("Z_HISTORYTRANSACTION") } == false)
    }

    @Test("a save that fails (conflict resolved to fail) leaves no history")
    func failedSaveLeavesNoHistory() throws {
        let store = try fixture.store()
        let id = try HistoryFixture.insertTickers(["FAIL"], into: StoreCoordinator(store: store))[0]
        let entity = store.model.entity(named: "Ticker")!
        var stale = Snapshot(defaultsFor: entity)
        stale.version = 7  // not the row's version: a conflict
        var mask = PropertyMask(); mask.insert(entity.attributeIndex("price")!)
        var changes = StoreChangeSet()
        changes.updates = [ObjectChange(id: id, snapshot: stale, committed: stale, changed: mask)]
        #expect(throws: MergeConflictError.self) { try store.save(changes) { _ in .fail } }
        #expect(try HistoryFixture.rawCounts(store) == (1, 1))
    }
}
