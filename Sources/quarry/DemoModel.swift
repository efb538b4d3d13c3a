import Foundation
import Quarry

/// The demo's stock-ticker model: `Sector` ↔ `Ticker` ↔ `Quote`.
enum DemoModel {
    static let sectorNames = [
        "Communication", "Consumer Discretionary", "Consumer Staples", "Energy", "Financials", "Health Care",
        "Industrials", "Information Technology", "Materials", "Real Estate", "Utilities",
    ]

    static func make() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Sector") { e in
            e.attribute("name", .string, optional: false)
            e.toMany("tickers", destination: "Ticker", inverse: "sector", deleteRule: .cascade)
            e.unique("name")
        }
        b.entity("Ticker") { e in
            e.attribute("symbol", .string, optional: false, min: 1, max: 12, indexed: true)
            e.attribute("name", .string)
            e.attribute("price", .double, default: .double(0), min: 0)
            e.attribute("change", .double, default: .double(0))
            e.attribute("volume", .integer64, default: .integer(0), min: 0)
            e.attribute("updated", .date)
            e.toOne("sector", destination: "Sector", inverse: "tickers")
            e.toMany("quotes", destination: "Quote", inverse: "ticker", deleteRule: .cascade)
        }
        b.entity("Quote") { e in
            e.attribute("price", .double, optional: false)
            e.attribute("time", .date, optional: false)
            e.toOne("ticker", destination: "Ticker", inverse: "quotes")
        }
        return try b.build()
    }
}

/// Seeds a demo store: the sectors through a context, then the tickers and quotes as batch
/// inserts straight into the store, in chunks (one transaction each).
struct DemoSeeder {
    let coordinator: StoreCoordinator
    var chunk = 10_000

    /// Inserts the sectors (if missing) and `rows` tickers with one quote each per 10 tickers.
    func seed(rows: Int) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "importer")
        let sectors = try context.performAndWait { () -> [ObjectID] in
            var sectors = try context.objects(ofEntity: "Sector")
            if sectors.isEmpty {
                sectors = try DemoModel.sectorNames.map { name in
                    let s = try context.insertObject(entityName: "Sector")
                    try s.setValue(.string(name), forKey: "name")
                    return s
                }
                try context.save()
            }
            return sectors.map(\.objectID)
        }
        var generator = SplitMix64(seed: 42)
        let now = Value.date(Date())
        var i = 0
        while i < rows {
            let end = min(rows, i + chunk)
            var tickers = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "name", "price", "volume", "updated"], relationships: ["sector"])
            tickers.reserveCapacity(end - i)
            var quotePrices: [Value] = []
            for n in i..<end {
                let price = Value.double(Double(generator.next() % 100_000) / 100)
                let volume = Value.integer(Int64(generator.next() % 1_000_000))
                let sector = sectors[Int(generator.next() % UInt64(sectors.count))]
                tickers.append([.string(Self.symbol(n)), .string("Company \(n)"), price, volume, now], destinations: [sector])
                if n % 10 == 0 { quotePrices.append(price) }
            }
            let saved = try coordinator.batchInsert(tickers)
            var quotes = BatchInsertRequest(entityName: "Quote", attributes: ["price", "time"], relationships: ["ticker"])
            quotes.reserveCapacity(quotePrices.count)
            for (q, price) in quotePrices.enumerated() { quotes.append([price, now], destinations: [saved.inserted[q * 10]]) }
            try coordinator.batchInsert(quotes)
            i = end
        }
    }

    /// A unique ticker-like symbol for row `n` (`A`, `B`, …, `AA`, …).
    static func symbol(_ n: Int) -> String {
        var n = n
        var s = ""
        repeat {
            s.insert(Character(UnicodeScalar(UInt8(65 + n % 26))), at: s.startIndex)
            n = n / 26 - 1
        } while n >= 0
        return s
    }
}
