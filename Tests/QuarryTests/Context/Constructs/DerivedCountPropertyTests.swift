import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A derived `@count` stays equal to a recount across many random saves: inserts, deletes and
/// moves of items, and deletes and inserts of orders, in a seeded order.
@Suite struct DerivedCountPropertyTests {
    /// A small deterministic generator (SplitMix64).
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func aDerivedCountMatchesARecountAcrossTenThousandRandomSaves() throws {
        let store = TestStore(.sqlite, model: try ShopFixture.counted(withTotal: false))
        let context = try store.context()
        var random = SeededGenerator(state: 39)
        try context.performAndWait {
            var orders: [ManagedObject] = []
            var items: [ManagedObject] = []
            for _ in 0..<10 { orders.append(try context.insertObject(entityName: "Order")) }
            try context.save()
            for save in 1...10_000 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4 where !orders.isEmpty:
                    let item = try context.insertObject(entityName: "Item")
                    try item.setObject(orders.randomElement(using: &random)!, forKey: "order")
                    items.append(item)
                case 4..<6 where !items.isEmpty:
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
                    }
                }
            }
        }
        // What the store holds agrees with a recount too.
        let reader = try store.context("reader")
        try reader.performAndWait {
            for order in try reader.fetch(FetchRequest(entityName: "Order")) {
                #expect(try order.value(forKey: "itemCount") == .integer(Int64(try order.objectIDs(forKey: "items").count)))
            }
        }
    }
}
