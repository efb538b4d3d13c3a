import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Fetched properties are fetched when first read, with `$FETCH_SOURCE` bound to the object,
/// and kept until the object is refreshed.
@Suite struct FetchedPropertyTests {
    @Test(arguments: StoreKind.allCases)
    func aFetchedPropertyIsFetchedLazilyAndKeptUntilRefresh(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.model())
        let context = try store.context()
        try context.performAndWait {
            let order = try context.insertObject(entityName: "Order")
            for price in [5.0, 15, 25] {
                let item = try context.insertObject(entityName: "Item")
                try item.setValue(.double(price), forKey: "price")
                try item.setObject(order, forKey: "order")
            }
            let other = try context.insertObject(entityName: "Order")
            let stray = try context.insertObject(entityName: "Item")
            try stray.setValue(.double(99), forKey: "price")
            try stray.setObject(other, forKey: "order")
            try context.save()

            let expensive = try order.fetchedProperty("expensiveItems")
            #expect(try expensive.map { try $0.value(forKey: "price") }.sorted { "\($0)" < "\($1)" } == [.double(15), .double(25)])
            guard case .json(.array(let uris)) = try order.value(forKey: "expensiveItems") else {
                Issue.record("value(forKey:) of a fetched property is not an array")
                return
            }
            #expect(uris.count == 2)

            // A new match is not seen until the object is refreshed, as in Core Data.
            let cheap = try order.objects(forKey: "items").first { try $0.value(forKey: "price") == .double(5) }!
            try cheap.setValue(.double(50), forKey: "price")
            try context.save()
            #expect(try order.fetchedProperty("expensiveItems").count == 2)
            context.refresh(order, mergeChanges: false)
            #expect(try order.fetchedProperty("expensiveItems").count == 3)
        }
    }

    @Test func aSourceKeyPathThroughACompositeIsBound() throws {
        let store = TestStore(.sqlite, model: try ShopFixture.model())
        let context = try store.context()
        try context.performAndWait {
            for (name, city) in [("Ann", "Oslo"), ("Bo", "Oslo"), ("Cy", "Rome")] {
                let customer = try context.insertObject(entityName: "Customer")
                try customer.setValue(.string(name), forKey: "name")
                try customer.setCompositeValues(["city": .string(city)], forKey: "home")
            }
            try context.save()
            let ann = try context.fetch(FetchRequest(entityName: "Customer", predicate: try ObjectPredicate(format: "name == 'Ann'")))[0]
            #expect(try ann.fetchedProperty("neighbours").map { try $0.value(forKey: "name") } == [.string("Bo")])
            #expect(throws: QuarryError.unknownKey(entity: "Customer", key: "nobody")) { try ann.fetchedProperty("nobody") }
        }
    }
}
