import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Derived attributes are computed by each save that affects them, on every back end, and are
/// read-only to callers.
@Suite struct DerivedAttributeSaveTests {
    /// Inserts an order titled `title` with items of `prices`.
    private func order(_ title: String, prices: [Double], in context: ObjectContext) throws -> ManagedObject {
        let order = try context.insertObject(entityName: "Order")
        try order.setValue(.string(title), forKey: "title")
        for price in prices {
            let item = try context.insertObject(entityName: "Item")
            try item.setValue(.double(price), forKey: "price")
            try item.setObject(order, forKey: "order")
        }
        return order
    }

    @Test(arguments: StoreKind.allCases)
    func everyFormIsComputedAtSave(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.model())
        let context = try store.context()
        let id = try context.performAndWait { () -> ObjectID in
            let customer = try context.insertObject(entityName: "Customer")
            try customer.setValue(.string("Zoë"), forKey: "name")
            let order = try order("Crème Brûlée", prices: [5, 12.5, 20], in: context)
            try order.setObject(customer, forKey: "customer")
            #expect(try order.value(forKey: "itemCount") == .null, "computed by the save, not before")
            try context.save()
            return order.objectID
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let order = try reader.existingObject(with: id)
            #expect(try order.value(forKey: "itemCount") == .integer(3))
            #expect(try order.value(forKey: "total") == .double(37.5))
            #expect(try order.value(forKey: "maxPrice") == .double(20))
            #expect(try order.value(forKey: "customerName") == .string("Zoë"))
            #expect(try order.value(forKey: "lowerTitle") == .string("crème brûlée"))
            #expect(try order.value(forKey: "upperTitle") == .string("CRÈME BRÛLÉE"))
            #expect(try order.value(forKey: "searchTitle") == .string("creme brulee"))
            guard case .date = try order.value(forKey: "stamp") else { Issue.record("now() gave no date"); return }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesAtTheFarEndRecomputeTheirSources(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.model())
        let context = try store.context()
        try context.performAndWait {
            let customer = try context.insertObject(entityName: "Customer")
            try customer.setValue(.string("Ann"), forKey: "name")
            let first = try order("first", prices: [1, 2], in: context)
            let second = try order("second", prices: [10], in: context)
            try first.setObject(customer, forKey: "customer")
            try context.save()
            #expect(try first.value(forKey: "total") == .double(3))

            // A price change reaches its order's sum.
            let item = try first.objects(forKey: "items").first { try $0.value(forKey: "price") == .double(2) }!
            try item.setValue(.double(7), forKey: "price")
            try context.save()
            #expect(try first.value(forKey: "total") == .double(8))

            // An item moved to another order changes both.
            try item.setObject(second, forKey: "order")
            try context.save()
            #expect(try first.value(forKey: "itemCount") == .integer(1))
            #expect(try first.value(forKey: "total") == .double(1))
            #expect(try second.value(forKey: "itemCount") == .integer(2))
            #expect(try second.value(forKey: "total") == .double(17))

            // A deleted item leaves its order's count.
            context.delete(item)
            try context.save()
            #expect(try second.value(forKey: "itemCount") == .integer(1))
            #expect(try second.value(forKey: "maxPrice") == .double(10))

            // A to-one's attribute change reaches the copies.
            try customer.setValue(.string("Anna"), forKey: "name")
            try context.save()
            #expect(try first.value(forKey: "customerName") == .string("Anna"))
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let orders = try reader.fetch(FetchRequest(entityName: "Order", sortDescriptors: [SortKey("title")]))
            #expect(try orders.map { try $0.value(forKey: "total") } == [.double(1), .double(10)])
            #expect(try orders[0].value(forKey: "customerName") == .string("Anna"))
        }
    }

    @Test func aDerivedAttributeIsReadOnlyToCallers() throws {
        let store = TestStore(.memory, model: try ShopFixture.counted())
        let context = try store.context()
        context.performAndWait {
            let order = try! context.insertObject(entityName: "Order")
            #expect(throws: QuarryError.readOnlyDerivedAttribute(entity: "Order", attribute: "itemCount", expression: "items.@count")) {
                try order.setValue(.integer(5), forKey: "itemCount")
            }
            #expect(throws: QuarryError.self) { try order.setValues(["total": .double(1)]) }
            #expect("\(QuarryError.readOnlyDerivedAttribute(entity: "Order", attribute: "itemCount", expression: "items.@count"))"
                == "'Order.itemCount' is a derived attribute (items.@count): saves compute it, it cannot be set")
        }
    }

    @Test func derivedAttributesAreRecomputedAfterWillSaveAndBeforeValidation() throws {
        var builder = ModelBuilder()
        builder.entity("Order") { e in
            e.derived("itemCount", .integer64, "items.@count", optional: false)
            e.toMany("items", destination: "Item", inverse: "order")
        }
        builder.entity("Item") { e in e.toOne("order", destination: "Order", inverse: "items") }
        let store = TestStore(.memory, model: try builder.build())
        let context = try store.context()
        try context.performAndWait {
            // Required and never set by the caller: validation sees the computed value.
            _ = try context.insertObject(entityName: "Order")
            try context.save()
            let order = try context.fetch(FetchRequest(entityName: "Order"))[0]
            #expect(try order.value(forKey: "itemCount") == .integer(0))
        }
    }
}
