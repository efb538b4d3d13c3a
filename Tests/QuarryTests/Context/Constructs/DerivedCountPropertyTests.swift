import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// A derived `@count` and `@sum` (both kept by differences, as Core Data's SQL triggers keep
/// them) stay equal to a recount and a re-sum across many random saves: inserts, price changes,
/// deletes and moves of items, and deletes and inserts of orders, in a seeded order.
@Suite struct DerivedCountPropertyTests {
    @Test("a derived @count and @sum match a recount across 10,000 random saves", arguments: [StoreKind.sqlite, .memory])
    func aDerivedCountMatchesARecountAcrossTenThousandRandomSaves(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let context = try store.context()
        var random = SplitMix64(seed: 39)
        try context.performAndWait {
            var orders: [ManagedObject] = []
            var items: [ManagedObject] = []
            for _ in 0..<10 { orders.append(try context.insertObject(entityName: "Order")) }
            try context.save()
            for save in 1...10_000 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4 where !orders.isEmpty:
                    let item = try context.insertObject(entityName: "Item")
                    try item.setValue(.double(Double(Int.random(in: 0..<1000, using: &random)) / 4), forKey: "price")
                    try item.setObject(orders.randomElement(using: &random)!, forKey: "order")
                    items.append(item)
                case 4 where !items.isEmpty:
                    try items.randomElement(using: &random)!.setValue(.double(Double(Int.random(in: 0..<1000, using: &random)) / 4), forKey: "price")
                case 5 where !items.isEmpty:
                    let item = items.remove(at: Int.random(in: 0..<items.count, using: &random))
                    context.delete(item)
                case 6..<9 where !items.isEmpty && !orders.isEmpty:
                    let item = items.randomElement(using: &random)!
                    try item.setObject(Bool.random(using: &random) ? orders.randomElement(using: &random)! : nil, forKey: "order")
                case 9 where orders.count > 3:
                    // Deleting an order cascades to its items.
                    let order = orders.remove(at: Int.random(in: 0..<orders.count, using: &random))
                    let members = Set(try order.objectIDs(forKey: "items"))
                    items.removeAll { members.contains($0.objectID) }
                    context.delete(order)
                default:
                    orders.append(try context.insertObject(entityName: "Order"))
                }
                try context.save()
                if save % 500 == 0 || save == 10_000 {
                    for order in orders {
                        let recount = try context.count(for: FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "order == %@", .value(.integer(order.objectID.primaryKey)))))
                        #expect(try order.value(forKey: "itemCount") == .integer(Int64(recount)), "save \(save)")
                        #expect(try Self.totalIsItsItemsSum(order), "save \(save): total")
                    }
                }
            }
        }
        // What the store holds agrees with a recount too.
        let reader = try store.context("reader")
        try reader.performAndWait {
            for order in try reader.fetch(FetchRequest(entityName: "Order")) {
                #expect(try order.value(forKey: "itemCount") == .integer(Int64(try order.objectIDs(forKey: "items").count)))
                #expect(try Self.totalIsItsItemsSum(order), "stored total")
            }
        }
    }

    /// Whether `order`'s derived total equals its items' prices added up (to rounding).
    static func totalIsItsItemsSum(_ order: ManagedObject) throws -> Bool {
        let sum = try order.objects(forKey: "items").reduce(0.0) { total, item in
            guard case .double(let price) = try item.value(forKey: "price") else { return total }
            return total + price
        }
        guard case .double(let total) = try order.value(forKey: "total") else { return false }
        return abs(total - sum) < 1e-6
    }
}
