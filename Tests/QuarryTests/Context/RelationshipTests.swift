import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Relationships: inverse maintenance and storage")
struct RelationshipTests {
    @Test("setting a to-one updates the inverse to-many, old and new", arguments: StoreKind.allCases)
    func toOneMaintainsToMany(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let tech = try context.insert(Sector.self); tech.name = "Tech"
            let energy = try context.insert(Sector.self); energy.name = "Energy"
            let t = try context.insert(Ticker.self); t.symbol = "ACME"
            t.sector = tech
            #expect(tech.tickers == [t])
            t.sector = energy
            #expect(tech.tickers.isEmpty)
            #expect(energy.tickers == [t])
            try context.save()
            t.sector = nil
            #expect(energy.tickers.isEmpty)
            try context.save()
        }
    }

    @Test("adding to a to-many sets the inverse to-one and takes it from the old owner", arguments: StoreKind.allCases)
    func toManyMaintainsToOne(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let tech = try context.insert(Sector.self); tech.name = "Tech"
            let energy = try context.insert(Sector.self); energy.name = "Energy"
            let t = try context.insert(Ticker.self); t.symbol = "ACME"
            tech.tickers = [t]
            #expect(t.sector === tech)
            try energy.add(t, toKey: "tickers")
            #expect(t.sector === energy)
            #expect(tech.tickers.isEmpty)
            try energy.remove(t, fromKey: "tickers")
            #expect(t.sector == nil)
        }
    }

    @Test("many-to-many maintains both sides and survives a reload", arguments: StoreKind.allCases)
    func manyToMany(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        let (tid, gid) = try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "ACME"
            let growth = try context.insert(TickerTag.self); growth.label = "growth"
            let value = try context.insert(TickerTag.self); value.label = "value"
            t.tags = [growth, value]
            #expect(growth.tickers == [t])
            value.tickers = []
            #expect(t.tags == [growth])
            try context.save()
            return (t.objectID, growth.objectID)
        }
        let reader = try store.context("reader")
        reader.performAndWait {
            let t = reader.object(with: tid) as! Ticker
            #expect(t.tags.map(\.objectID) == [gid])
            let g = reader.object(with: gid) as! TickerTag
            #expect(g.tickers.map(\.objectID) == [tid])
        }
    }

    @Test("ordered to-many keeps its order through the store", arguments: StoreKind.allCases)
    func orderedToMany(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        let (pid, symbols) = try context.performAndWait {
            let p = try context.insert(Portfolio.self)
            let tickers = try ["C", "A", "B"].map { s -> Ticker in let t = try context.insert(Ticker.self); t.symbol = s; return t }
            p.holdings = tickers
            try context.save()
            p.holdings = [tickers[2], tickers[0], tickers[1]]
            try context.save()
            return (p.objectID, p.holdings.map(\.symbol))
        }
        #expect(symbols == ["B", "C", "A"])
        let reader = try store.context("reader")
        reader.performAndWait {
            let p = reader.object(with: pid) as! Portfolio
            #expect(p.holdings.map(\.symbol) == ["B", "C", "A"])
        }
    }

    @Test("a to-one set on a fault updates the stored to-many without loading it", arguments: StoreKind.allCases)
    func pendingToManyEdits(kind: StoreKind) throws {
        let store = TestStore(kind)
        let setup = try store.context()
        let sid = try setup.performAndWait {
            let s = try setup.insert(Sector.self); s.name = "Tech"
            for i in 0..<5 { let t = try setup.insert(Ticker.self); t.symbol = "T\(i)"; t.sector = s }
            try setup.save()
            return s.objectID
        }
        let context = try store.context("second")
        try context.performAndWait {
            let s = context.object(with: sid) as! Sector
            let t = try context.insert(Ticker.self); t.symbol = "NEW"
            t.sector = s
            #expect(s.toMany.values.allSatisfy { !$0.isLoaded }, "the sector's 5 tickers were not loaded")
            try context.save()
            #expect(s.tickers.count == 6)
        }
    }

    @Test("relationships given from one side in a fixture folder read back from both sides, in order")
    func fixtureRelationships() throws {
        let fixtures = try FixtureControllerTests.tickerFixtures()
        let context = fixtures.context
        try context.performAndWait {
            let tech = try fixtures.object(withID: 1, inEntity: "Sector", as: Sector.self)
            let energy = try fixtures.object(withID: 2, inEntity: "Sector", as: Sector.self)
            let gas = try fixtures.object(withID: 3, inEntity: "Ticker", as: Ticker.self)
            // Tech's tickers are given by each ticker's sector; Energy's by its own list.
            #expect(Set(tech.tickers.map(\.symbol)) == ["ACME", "BOLT"])
            #expect(gas.sector === energy && energy.tickers == [gas])
            // Tag 1 lists ACME, BOLT lists tags 1 and 2: both sides hold the union.
            let fast = try fixtures.object(withID: 1, inEntity: "Tag", as: TickerTag.self)
            #expect(Set(fast.tickers.map(\.symbol)) == ["ACME", "BOLT"])
            let portfolio = try fixtures.object(withID: 1, inEntity: "Portfolio", as: Portfolio.self)
            #expect(portfolio.holdings.map(\.symbol) == ["GAS", "ACME", "BOLT"])
            #expect(portfolio.owner?.name == "Ada")
        }
    }
}
