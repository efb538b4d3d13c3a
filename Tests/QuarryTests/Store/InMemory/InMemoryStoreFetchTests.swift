import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

@Suite("InMemoryStore fetches")
struct InMemoryStoreFetchTests {
    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func abstractParentFetchReturnsEverySubentityInPrimaryKeyOrder(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let ids = try f.insertAll([f.insert("Stock", ["code": .string("S1")]), f.insert("Bond", ["code": .string("B1")]),
                                   f.insert("Stock", ["code": .string("S2")])])
        #expect(ids.map(\.primaryKey) == [1, 2, 3])

        let asset = f.entity("Asset")
        #expect(try f.store.objectIDs(for: StoreQuery(entity: asset)) == ids)
        #expect(try f.store.objectIDs(for: StoreQuery(entity: f.entity("Stock"))) == [ids[0], ids[2]])
        #expect(try f.store.objectIDs(for: StoreQuery(entity: f.entity("Bond"))) == [ids[1]])
        #expect(try f.store.objectIDs(for: StoreQuery(entity: asset, includesSubentities: false)) == [])
        #expect(try f.store.count(for: StoreQuery(entity: asset)) == 3)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func limitAndOffsetPageThroughPrimaryKeyOrder(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let ids = try f.insertAll((1...5).map { f.insert("Tag", ["label": .string("t\($0)")]) })
        let tag = f.entity("Tag")
        #expect(try f.store.objectIDs(for: StoreQuery(entity: tag, limit: 2)) == Array(ids[0..<2]))
        #expect(try f.store.objectIDs(for: StoreQuery(entity: tag, limit: 2, offset: 2)) == Array(ids[2..<4]))
        #expect(try f.store.objectIDs(for: StoreQuery(entity: tag, offset: 4)) == [ids[4]])
        #expect(try f.store.count(for: StoreQuery(entity: tag, limit: 2, offset: 4)) == 1)
        #expect(try f.store.count(for: StoreQuery(entity: tag, offset: 9)) == 0)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func fetchesSeeOnlyCommittedRows(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let ids = try f.insertAll([f.insert("Tag", ["label": .string("a")]), f.insert("Tag", ["label": .string("b")])])
        try f.save(deletes: [(ids[0], 1)])
        #expect(try f.store.objectIDs(for: StoreQuery(entity: f.entity("Tag"))) == [ids[1]])
        #expect(try f.count("Ticker") == 0)
    }
}
