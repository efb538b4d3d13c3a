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

/// Seeds a demo store through an importer context, in chunks.
struct DemoSeeder {
    let coordinator: StoreCoordinator
    var chunk = 5_000

    /// Inserts the sectors (if missing) and `rows` tickers with one quote each per 10 tickers.
    func seed(rows: Int) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "importer")
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            var sectors = try context.objects(ofEntity: "Sector")
            if sectors.isEmpty {
                sectors = try DemoModel.sectorNames.map { name in
                    let s = try context.insertObject(entityName: "Sector")
                    try s.setValue(.string(name), forKey: "name")
                    return s
                }
                try context.save()
            }
            var generator = SplitMix64(seed: 42)
            // Typed keys are the engine's fast path (no dictionary, no key-path lookup per value).
            let symbol = AttributeKey<String>("symbol"), name = AttributeKey<String>("name")
            let price = AttributeKey<Double>("price"), volume = AttributeKey<Int64>("volume")
            let updated = AttributeKey<Date>("updated"), time = AttributeKey<Date>("time")
            let now = Date()
            var i = 0
            while i < rows {
                let end = min(rows, i + chunk)
                for n in i..<end {
                    let t = try context.insertObject(entityName: "Ticker")
                    let p = Double(generator.next() % 100_000) / 100
                    t[symbol] = Self.symbol(n)
                    t[name] = "Company \(n)"
                    t[price] = p
                    t[volume] = Int64(generator.next() % 1_000_000)
                    t[updated] = now
                    try t.setObject(sectors[Int(generator.next() % UInt64(sectors.count))], forKey: "sector")
                    if n % 10 == 0 {
                        let q = try context.insertObject(entityName: "Quote")
                        q[price] = p
                        q[time] = now
                        try q.setObject(t, forKey: "ticker")
                    }
                }
                try context.save()
                i = end
            }
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
