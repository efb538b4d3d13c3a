import Foundation
@testable import Quarry
import QuarryTestSupport

/// A small ticker store for the batch request tests: sectors `tech` and `energy`, four tickers
/// (two per sector) with quotes and tags, a person with a portfolio.
struct BatchRequestFixture {
    let store: TestStore
    let writer: StoreCoordinator
    /// Object IDs by name: sectors by name, tickers by symbol, `Q-<symbol>` quotes, `tag`,
    /// `person`, `portfolio`.
    let ids: [String: ObjectID]

    init(_ kind: StoreKind) throws {
        store = TestStore(kind)
        store.model.registerTickerClasses()
        let context = try store.context("seed")
        ids = try context.performAndWait {
            var ids: [String: ObjectID] = [:]
            let tech = try context.insert(Sector.self); tech.name = "tech"
            let energy = try context.insert(Sector.self); energy.name = "energy"
            let tag = try context.insert(TickerTag.self); tag.label = "watched"
            let rows: [(String, Double, Int64, Sector)] = [("AAPL", 10, 5, tech), ("MSFT", 20, 6, tech), ("XOM", 30, 7, energy), ("CVX", 40, 8, energy)]
            var tickers: [Ticker] = []
            for (symbol, price, volume, sector) in rows {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol; t.price = price; t.volume = volume; t.sector = sector
                t.tags = [tag]
                let q = try context.insert(Quote.self)
                q.price = price; q.time = Date(timeIntervalSinceReferenceDate: 0); q.ticker = t
                tickers.append(t)
            }
            let person = try context.insert(Person.self); person.name = "Ada"
            let portfolio = try context.insert(Portfolio.self); portfolio.title = "main"; portfolio.owner = person
            portfolio.holdings = [tickers[2]]
            try context.save()
            ids["tech"] = tech.objectID; ids["energy"] = energy.objectID; ids["tag"] = tag.objectID
            ids["person"] = person.objectID; ids["portfolio"] = portfolio.objectID
            for t in tickers { ids[t.symbol] = t.objectID }
            for q in try context.fetch(FetchRequest(entityName: "Quote")) as! [Quote] { ids["Q-\(q.ticker!.symbol)"] = q.objectID }
            return ids
        }
        writer = try store.coordinator("writer")
    }

    /// A fresh context on its own coordinator: what the store now holds.
    func reader() throws -> ObjectContext { try store.context("reader") }

    /// How many objects of `entity` the store holds.
    func count(_ entity: String) throws -> Int {
        let context = try reader()
        return try context.performAndWait { try context.count(for: FetchRequest(entityName: entity)) }
    }

    /// Each ticker's price, by symbol, as the store holds it.
    func prices() throws -> [String: Double] {
        let context = try reader()
        return try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Ticker")) as! [Ticker]
            return Dictionary(uniqueKeysWithValues: all.map { ($0.symbol, $0.price) })
        }
    }
}
