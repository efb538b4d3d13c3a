import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite struct SQLiteStoreSaveTests {
    let dir = TemporaryDirectory()

    @Test func saveReportsIDsSnapshotsAndChanges() throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let sector = make.insert("Sector", ["name": .string("Tech")])
        let ticker = make.insert("Ticker", ["symbol": .string("X"), "note": .string("transient")], toOne: ["sector": sector.id])
        var changes = StoreChangeSet()
        changes.inserts = [sector, ticker]
        let result = try store.save(changes) { _ in .fail }
        let sectorID = try #require(result.permanentIDs[sector.id])
        let tickerID = try #require(result.permanentIDs[ticker.id])
        #expect(!sectorID.isTemporary && sectorID.entityIndex == sector.id.entityIndex)
        #expect(result.changes.inserted == [sectorID, tickerID])
        #expect(result.written[tickerID] == nil, "inserted rows are stored as sent")
        let written = try #require(try store.snapshot(tickerID))
        #expect(written.version == 1)
        #expect(written.toOne[make.entity("Ticker").relationshipIndex("sector")!] == sectorID)
        #expect(written == (try store.snapshot(tickerID)))

        let update = make.update(tickerID, from: written, ["price": .double(12.5)])
        let updated = try store.update([update])
        #expect(updated.changes.updated == [tickerID])
        #expect(updated.changes.changedKeys[tickerID] == ["price"])
        #expect(updated.changes.changedBits == [1 << UInt64(make.entity("Ticker").attributeIndex("price")!)])
        #expect(updated.written[tickerID]?.version == 2)
        #expect(try store.snapshot(tickerID) == updated.written[tickerID])
    }

    @Test func twoStoresOnOneFileAllocateDistinctKeys() throws {
        let url = dir.file("t.sqlite")
        let main = try SQLiteStore(url: url, model: TestModels.tickers())
        let writer = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: main.model)
        let first = try main.insert((0..<3).map { make.insert("Sector", ["name": .string("m\($0)")]) })
        let second = try writer.insert((0..<2).map { make.insert("Sector", ["name": .string("w\($0)")]) })
        let third = try main.insert([make.insert("Sector", ["name": .string("m3")])])
        #expect((first + second + third).map(\.primaryKey) == [1, 2, 3, 4, 5, 6])
        #expect(try writer.count(for: StoreQuery(entity: make.entity("Sector"))) == 6)
    }

    @Test func failureMidwayLeavesNoPartialRows() throws {
        let url = dir.file("t.sqlite")
        let store = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        var changes = StoreChangeSet()
        changes.inserts = [make.insert("Tag", ["label": .string("t")])]
            + ["a", "b", "a", "c"].map { make.insert("Sector", ["name": .string($0)]) }
        #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) { try store.save(changes) { _ in .fail } }
        try inspect(url) { db in
            let rows = try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM Sector) + (SELECT COUNT(*) FROM Tag)")
            let maxKeys = try Int.fetchAll(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY")
            #expect(rows == 0)
            #expect(maxKeys.allSatisfy { $0 == 0 })
        }
        let ids = try store.insert([make.insert("Sector", ["name": .string("a")])])
        #expect(ids.map(\.primaryKey) == [1])
    }

    /// A ticker saved at version 1, then changed to version 2 through a second store.
    private func conflictSetup() throws -> (store: SQLiteStore, make: ChangeMaker, id: ObjectID, stale: Snapshot) {
        let url = dir.file("t.sqlite")
        let store = try SQLiteStore(url: url, model: TestModels.tickers())
        let other = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let id = try store.insert([make.insert("Ticker", ["symbol": .string("X"), "price": .double(1)])])[0]
        let stale = try #require(try store.snapshot(id))
        try other.update([make.update(id, from: stale, ["price": .double(2)])])
        return (store, make, id, stale)
    }

    @Test func conflictFailRollsBackAndListsEveryConflict() throws {
        let (store, make, id, stale) = try conflictSetup()
        let fresh = try store.insert([make.insert("Sector", ["name": .string("S")])])[0]
        var changes = StoreChangeSet()
        changes.inserts = [make.insert("Tag", ["label": .string("new")])]
        changes.updates = [make.update(id, from: stale, ["name": .string("Mine")])]
        changes.deletes = [(fresh, 7)]
        var seen: [MergeConflict] = []
        let error = try #require(throws: MergeConflictError.self) {
            try store.save(changes) { seen.append($0); return .fail }
        }
        #expect(error.conflicts.map(\.objectID) == [id, fresh])
        let conflict = error.conflicts[0]
        #expect(conflict.oldVersion == 1 && conflict.newVersion == 2)
        #expect(conflict.cachedSnapshot == stale)
        #expect(conflict.persistedSnapshot?.values[make.entity("Ticker").attributeIndex("price")!] == .double(2))
        #expect(conflict.objectSnapshot?.values[make.entity("Ticker").attributeIndex("name")!] == .string("Mine"))
        #expect(error.conflicts[1].objectSnapshot == nil && error.conflicts[1].newVersion == 1)
        #expect(seen.count == 2)
        #expect(try store.count(for: StoreQuery(entity: make.entity("Tag"))) == 0)
        #expect(try store.snapshot(id)?.version == 2)
        #expect(try store.snapshot(fresh) != nil)
    }

    @Test func conflictKeepPersistedReportsRollback() throws {
        let (store, make, id, stale) = try conflictSetup()
        let result = try store.update([make.update(id, from: stale, ["name": .string("Mine")])]) { _ in .keepPersisted }
        let persisted = try #require(try store.snapshot(id))
        #expect(persisted.version == 2)
        #expect(result.rolledBack[id] == .some(persisted))
        #expect(result.changes.isEmpty)
    }

    @Test func conflictWriteStoresResolvedStatePastPersistedVersion() throws {
        let (store, make, id, stale) = try conflictSetup()
        let ticker = make.entity("Ticker")
        let result = try store.update([make.update(id, from: stale, ["name": .string("Mine")])]) { conflict in
            var merged = conflict.persistedSnapshot!
            merged.values[ticker.attributeIndex("name")!] = .string("Mine")
            return .write(merged)
        }
        let stored = try #require(try store.snapshot(id))
        #expect(stored.version == 3)
        #expect(stored.values[ticker.attributeIndex("price")!] == .double(2))
        #expect(stored.values[ticker.attributeIndex("name")!] == .string("Mine"))
        #expect(result.written[id] == stored)
        #expect(result.changes.updated == [id])
        #expect(result.changes.changedKeys[id] == ["name"])
        #expect(result.changes.changedBits == [1 << UInt64(ticker.attributeIndex("name")!)])
    }

    @Test func conflictDeleteRemovesTheRow() throws {
        let (store, make, id, stale) = try conflictSetup()
        let result = try store.update([make.update(id, from: stale, ["name": .string("Mine")])]) { _ in .delete }
        #expect(try store.snapshot(id) == nil)
        #expect(result.changes.deleted == [id])
    }

    @Test func versionedDeleteSucceedsAtTheCurrentVersion() throws {
        let (store, make, id, _) = try conflictSetup()
        var changes = StoreChangeSet()
        changes.deletes = [(id, 2)]
        let result = try store.save(changes) { _ in .fail }
        #expect(result.changes.deleted == [id])
        #expect(try store.count(for: StoreQuery(entity: make.entity("Ticker"))) == 0)
    }
}
