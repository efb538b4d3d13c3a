import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

@Suite("InMemoryStore saves")
struct InMemoryStoreSaveTests {
    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func insertsGetPermanentIDsPerRootEntity(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tech = f.insert("Sector", ["name": .string("Tech")])
        let energy = f.insert("Sector", ["name": .string("Energy")])
        let ticker = f.insert("Ticker", ["symbol": .string("ACME")])
        let result = try f.save(inserts: [tech, energy, ticker])

        let ids = [tech, energy, ticker].map { result.permanentIDs[$0.id]! }
        #expect(ids.map(\.primaryKey) == [1, 2, 1])
        #expect(ids.map(\.entityIndex) == [tech, energy, ticker].map(\.id.entityIndex))
        #expect(ids.allSatisfy { !$0.isTemporary })
        #expect(result.changes.inserted == ids)
        #expect(ids.allSatisfy { (try? f.row($0))??.version == 1 })
        #expect(result.written.isEmpty, "inserted rows are stored as sent, not repeated in the result")

        let next = try f.insertAll([f.insert("Sector", ["name": .string("Health")])])
        #expect(next[0].primaryKey == 3)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func snapshotRoundTripStoresTransientsAsNullAndRewritesTemporaryReferences(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let sector = f.insert("Sector", ["name": .string("Tech")])
        let listed = Date(timeIntervalSinceReferenceDate: 1_000)
        let ticker = f.insert("Ticker", ["symbol": .string("ACME"), "name": .string("Acme Corp"), "price": .double(12.5),
                                         "volume": .integer(300), "active": .bool(false), "listed": .date(listed),
                                         "note": .string("scratch")], toOne: ["sector": sector.id])
        let result = try f.save(inserts: [sector, ticker])
        let sectorID = result.permanentIDs[sector.id]!, tickerID = result.permanentIDs[ticker.id]!

        let stored = try #require(try f.row(tickerID))
        var expected = f.snapshot("Ticker", ["symbol": .string("ACME"), "name": .string("Acme Corp"), "price": .double(12.5),
                                             "volume": .integer(300), "active": .bool(false), "listed": .date(listed)],
                                  toOne: ["sector": sectorID], version: 1)
        expected.values[f.entity("Ticker").attributeIndex("note")!] = .null
        #expect(stored == expected)
        #expect(result.written[tickerID] == nil)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func snapshotsLeaveOutMissingAndMismatchedIDs(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let id = try f.insertAll([f.insert("Sector", ["name": .string("Tech")])])[0]
        let wrongEntity = ObjectID(entityIndex: f.entity("Tag").index, primaryKey: id.primaryKey)
        let missing = ObjectID(entityIndex: Int(id.entityIndex), primaryKey: 99)
        #expect(try Set(f.store.snapshots(for: [id, wrongEntity, missing]).keys) == [id])
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func updatesIncrementTheVersionAndWriteOnlyChangedProperties(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let id = try f.insertAll([f.insert("Ticker", ["symbol": .string("ACME"), "name": .string("Acme")])])[0]
        let v1 = try #require(try f.row(id))

        var change = f.update(id, from: v1, ["price": .double(10)])
        change.snapshot.values[f.entity("Ticker").attributeIndex("name")!] = .string("not in the mask")
        let result = try f.save(updates: [change])
        let v2 = try #require(try f.row(id))
        #expect(v2.version == 2)
        #expect(v2.values[f.entity("Ticker").attributeIndex("price")!] == .double(10))
        #expect(v2.values[f.entity("Ticker").attributeIndex("name")!] == .string("Acme"))
        #expect(result.written[id] == v2)
        #expect(result.changes.updated == [id])
        #expect(result.changes.changedKeys[id] == ["price"])

        try f.save(updates: [f.update(id, from: v2, ["volume": .integer(5)])])
        #expect(try f.row(id)?.version == 3)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func deletesRemoveTheRow(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let ids = try f.insertAll([f.insert("Tag", ["label": .string("a")]), f.insert("Tag", ["label": .string("b")])])
        let result = try f.save(deletes: [(ids[0], 1)])
        #expect(result.changes.deleted == [ids[0]])
        #expect(try f.row(ids[0]) == nil)
        #expect(try f.count("Tag") == 1)
    }

    @Test func readOnlyStoreRefusesSaves() throws {
        let f = InMemoryStoreFixture(isReadOnly: true)
        #expect(f.store.isReadOnly)
        #expect(f.store.url == nil)
        #expect(throws: StoreError.readOnly(path: "memory")) {
            try f.save(inserts: [f.insert("Tag", ["label": .string("a")])])
        }
        #expect(try f.count("Tag") == 0)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func uniquenessViolationMidSaveLeavesNothing(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tech = try f.insertAll([f.insert("Sector", ["name": .string("Tech")])])[0]
        let techRow = try f.row(tech)

        #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) {
            try f.save(inserts: [f.insert("Sector", ["name": .string("Energy")]), f.insert("Ticker", ["symbol": .string("X")]),
                                 f.insert("Sector", ["name": .string("Energy")])],
                       updates: [f.update(tech, from: techRow!, ["name": .string("Technology")])])
        }
        #expect(try f.count("Sector") == 1)
        #expect(try f.count("Ticker") == 0)
        #expect(try f.row(tech) == techRow)
        #expect(try f.insertAll([f.insert("Sector", ["name": .string("Energy")])])[0].primaryKey == 2)
        #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) {
            try f.save(inserts: [f.insert("Sector", ["name": .string("Tech")])])
        }
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func uniquenessIsCheckedAgainstTheStateAfterTheSave(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tech = try f.insertAll([f.insert("Sector", ["name": .string("Tech")])])[0]
        let result = try f.save(inserts: [f.insert("Sector", ["name": .string("Tech")])], deletes: [(tech, 1)])
        #expect(result.changes.inserted.count == 1)
        #expect(try f.count("Sector") == 1)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func emptySaveChangesNothing(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let result = try f.save()
        #expect(result.changes.isEmpty)
        #expect(result.permanentIDs.isEmpty)
    }
}
