import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `allRelatedIDs(ofEntity:relationship:)` (issue 34, item 20: `quarry convert` of a JSON store
/// read each owner's to-many by scanning the destination table, quadratic in the store) gives,
/// for every owner, exactly what `relatedIDs(of:relationship:)` gives it, in order.
@Suite("A store's to-many lists read a relationship at a time")
struct AllRelatedIDsTests {
    @Test("foreign-key, join-table, reversed-join and ordered lists agree with the per-object reads, on a JSON store")
    func agreesWithPerObjectReads() throws {
        let directory = TemporaryDirectory()
        let store = try JSONStore(url: directory.file("Tickers.jsonstore"), model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try JSONStoreTesting.populateTickers(context)
        // More members, in an order other than their keys', so order is tested too.
        try context.performAndWait {
            let sector = try context.insert(Sector.self); sector.name = "Energy"
            var tickers: [Ticker] = []
            for i in 0..<30 {
                let ticker = try context.insert(Ticker.self)
                ticker.symbol = "T\(i)"; ticker.sector = sector
                tickers.append(ticker)
            }
            let tag = try context.insert(TickerTag.self); tag.label = "slow"
            tag.tickers = Set(tickers.prefix(10))
            let portfolio = try context.insert(Portfolio.self); portfolio.title = "Reversed"
            portfolio.holdings = tickers.reversed()
            try context.save()
        }
        var compared = 0
        for entity in store.model.entities where !entity.isAbstract {
            let ids = try store.objectIDs(for: StoreQuery(entity: entity, includesSubentities: false))
            for (r, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                let all = try #require(try store.allRelatedIDs(ofEntity: entity.index, relationship: r), "\(entity.name).\(relationship.name)")
                for id in ids {
                    #expect(all[id] ?? [] == (try store.relatedIDs(of: id, relationship: r)), "\(entity.name).\(relationship.name) of \(id)")
                    compared += 1
                }
                #expect(Set(all.keys).isSubset(of: Set(ids)), "\(entity.name).\(relationship.name): lists of objects of another entity")
            }
        }
        #expect(compared > 40)
    }

    @Test("a SQLite store answers nil (its per-object read is an indexed lookup), and a copy to it keeps every list")
    func sqliteAsksPerObject() throws {
        let directory = TemporaryDirectory()
        let json = try JSONStore(url: directory.file("Tickers.jsonstore"), model: TestModels.tickers())
        try JSONStoreTesting.populateTickers(ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: json)))
        let sqlite = try SQLiteStore(url: directory.file("copy.sqlite"), model: json.model)
        let ticker = try #require(sqlite.model.entity(named: "Ticker"))
        #expect(try sqlite.allRelatedIDs(ofEntity: ticker.index, relationship: ticker.relationshipIndex("quotes")!) == nil)
        let objects = try json.model.entities.filter { !$0.isAbstract }.reduce(0) {
            $0 + (try json.objectIDs(for: StoreQuery(entity: $1, includesSubentities: false)).count)
        }
        #expect(try json.copyAllObjects(to: sqlite) == objects)
        for entity in json.model.entities where !entity.isAbstract {
            for id in try json.objectIDs(for: StoreQuery(entity: entity, includesSubentities: false)) {
                for (r, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                    #expect(try sqlite.relatedIDs(of: id, relationship: r) == (try json.relatedIDs(of: id, relationship: r)), "\(entity.name).\(relationship.name)")
                }
            }
        }
    }
}
