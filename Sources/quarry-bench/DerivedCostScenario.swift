import Foundation
import Quarry
import QuarryDemo

/// Scenario `derived-cost`: what a derived `@sum` costs the saves that touch it. Two SQLite
/// stores of n orders (default 10,000) with 10 items each; one model's `Order.total` is derived
/// (`items.@sum.price`), the other's is a plain attribute no save touches. The same `--rounds`
/// saves (default 200), each changing the price of 100 random items (a seeded order), run on
/// both, alternating store by store, so both see the same machine state. `ratio derived-cost`
/// is the time without the derived attribute over the time with it (higher is better).
func runDerivedCostScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 10_000)
    let rounds = args.int("rounds", default: 200)
    let perSave = 100
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    print("derived-cost: \(rounds) saves changing \(perSave) item prices each, over \(n) orders of 10 items; Order.total = items.@sum.price derived vs plain")

    let plain = try DerivedCostStore(url: dir.appendingPathComponent("plain.sqlite"), derived: false, orders: n)
    let derived = try DerivedCostStore(url: dir.appendingPathComponent("derived.sqlite"), derived: true, orders: n)
    var random = SplitMix64(seed: 39)
    var withoutTime = 0.0, withTime = 0.0
    for _ in 0..<rounds {
        let picks = (0..<perSave).map { _ in (Int(random.next() % UInt64(n * 10)), Double(random.next() % 10_000) / 100) }
        withoutTime += try plain.save(picks)
        withTime += try derived.save(picks)
    }
    report("saves, plain total", n: rounds * perSave, seconds: withoutTime)
    report("saves, derived @sum total", n: rounds * perSave, seconds: withTime)
    try derived.check()
    ratio("derived-cost", withoutTime / withTime)
}

/// One store of the scenario, its items loaded in one context.
private struct DerivedCostStore {
    let context: ObjectContext
    let items: [ManagedObject]
    /// Held, as an application holds what it shows: a context keeps only referenced objects.
    let orders: [ManagedObject]
    let derived: Bool

    init(url: URL, derived: Bool, orders: Int) throws {
        var builder = ModelBuilder()
        builder.entity("Order") { e in
            e.attribute("title", .string)
            if derived { e.derived("total", .double, "items.@sum.price") } else { e.attribute("total", .double) }
            e.toMany("items", destination: "Item", inverse: "order", deleteRule: .cascade)
        }
        builder.entity("Item") { e in
            e.attribute("price", .double, default: .double(1))
            e.toOne("order", destination: "Order", inverse: "items")
        }
        let coordinator = StoreCoordinator(store: try SQLiteStore(url: url, model: try builder.build()), name: "bench")
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "bench")
        self.context = context
        self.derived = derived
        (self.items, self.orders) = try context.performAndWait {
            var items: [ManagedObject] = []
            var held: [ManagedObject] = []
            items.reserveCapacity(orders * 10)
            for o in 0..<orders {
                let order = try context.insertObject(entityName: "Order")
                held.append(order)
                try order.setValue(.string("order \(o)"), forKey: "title")
                for _ in 0..<10 {
                    let item = try context.insertObject(entityName: "Item")
                    try item.setObject(order, forKey: "order")
                    items.append(item)
                }
            }
            try context.save()
            return (items, held)
        }
    }

    /// Sets each picked item's price and saves; the save's seconds.
    func save(_ picks: [(item: Int, price: Double)]) throws -> Double {
        try context.performAndWait {
            for (item, price) in picks { try items[item].setValue(.double(price), forKey: "price") }
            return try measure { try context.save() }
        }
    }

    /// Every order's derived total equals the sum of its items' prices.
    func check() throws {
        try context.performAndWait {
            for order in try context.fetch(FetchRequest(entityName: "Order")) {
                let sum = try order.objects(forKey: "items").reduce(0.0) { total, item in
                    guard case .double(let price) = try item.value(forKey: "price") else { return total }
                    return total + price
                }
                guard case .double(let total) = try order.value(forKey: "total"), abs(total - sum) < 1e-6 else {
                    throw BenchError.check("order total \(try order.value(forKey: "total")) is not its items' sum \(sum)")
                }
            }
        }
    }
}
