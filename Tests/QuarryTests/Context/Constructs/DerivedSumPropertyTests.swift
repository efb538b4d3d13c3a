import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A derived `@sum` (kept by differences, as Core Data's triggers keep it) and `@count` on one
/// entity stay equal to a recomputation across random saves: price changes, inserts, moves and
/// deletes of items, deletes of orders; on SQLite and in memory.
@Suite struct DerivedSumPropertyTests {
    @Test("a derived @sum and @count match their recomputation across 2,000 random saves", arguments: [StoreKind.sqlite, .memory])
    func sumAndCount(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let context = try store.context()
        var random = DerivedCountPropertyTests.SeededGenerator(state: 7)
        func check(_ orders: [ManagedObject], _ label: String) throws {
            for order in orders {
                let items = try order.objects(forKey: "items")
                let sum = try items.reduce(0.0) { total, item in
                    guard case .double(let price) = try item.value(forKey: "price") else { return total }
                    return total + price
                }
                guard case .double(let total) = try order.value(forKey: "total") else {
                    Issue.record("\(label): no total"); return
                }
                #expect(abs(total - sum) < 1e-6, "\(label): total \(total), items' sum \(sum)")
                #expect(try order.value(forKey: "itemCount") == .integer(Int64(items.count)), "\(label)")
            }
        }
        try context.performAndWait {
            var orders: [ManagedObject] = []
            var items: [ManagedObject] = []
            for _ in 0..<6 { orders.append(try context.insertObject(entityName: "Order")) }
            try context.save()
            for save in 1...2_000 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<3:
                        let item = try context.insertObject(entityName: "Item")
                        try item.setValue(.double(Double(Int.random(in: 0..<1000, using: &random)) / 4), forKey: "price")
                        try item.setObject(orders.randomElement(using: &random)!, forKey: "order")
                        items.append(item)
                    case 3..<6 where !items.isEmpty:
                        try items.randomElement(using: &random)!.setValue(.double(Double(Int.random(in: 0..<1000, using: &random)) / 4), forKey: "price")
                    case 6 where !items.isEmpty:
                        context.delete(items.remove(at: Int.random(in: 0..<items.count, using: &random)))
                    case 7..<9 where !items.isEmpty:
                        try items.randomElement(using: &random)!.setObject(Bool.random(using: &random) ? orders.randomElement(using: &random)! : nil, forKey: "order")
                    case 9 where orders.count > 3:
                        let order = orders.remove(at: Int.random(in: 0..<orders.count, using: &random))
                        let members = Set(try order.objectIDs(forKey: "items"))
                        items.removeAll { members.contains($0.objectID) }
                        context.delete(order)
                    default:
                        orders.append(try context.insertObject(entityName: "Order"))
                    }
                }
                try context.save()
                if save % 250 == 0 { try check(orders, "save \(save)") }
            }
        }
        let reader = try store.context("reader")
        try reader.performAndWait { try check(try reader.fetch(FetchRequest(entityName: "Order")), "stored") }
    }
}
