import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// A derived `@sum` or `@count` of an object the save does not otherwise change is added to in
/// the store (``DerivedIncrement``), as Core Data's SQL triggers do: the object need not be
/// loaded, two writers' differences add up instead of conflicting, and every context (the
/// saving one included) sees the stored value. On every back end.
@Suite struct DerivedStoreIncrementTests {
    /// Saves an order with items of `prices`; its ID and its items' IDs.
    private func seed(_ store: TestStore, prices: [Double]) throws -> (order: ObjectID, items: [ObjectID]) {
        let context = try store.context("seed")
        return try context.performAndWait {
            let order = try context.insertObject(entityName: "Order")
            try order.setValue(.string("first"), forKey: "title")
            var items: [ManagedObject] = []
            for price in prices {
                let item = try context.insertObject(entityName: "Item")
                try item.setValue(.double(price), forKey: "price")
                try item.setObject(order, forKey: "order")
                items.append(item)
            }
            try context.save()
            return (order.objectID, items.map(\.objectID))
        }
    }

    /// The order's stored total and count, read by a new context.
    private func stored(_ store: TestStore, _ id: ObjectID) throws -> (total: Value, count: Value) {
        let reader = try store.context("reader")
        return try reader.performAndWait {
            let order = try reader.existingObject(with: id)
            return (try order.value(forKey: "total"), try order.value(forKey: "itemCount"))
        }
    }

    @Test("an order the saving context never loaded gets its new total from the store", arguments: StoreKind.allCases)
    func anUnloadedOrderIsKeptByTheStore(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let seeded = try seed(store, prices: [1, 2, 4])
        let context = try store.context("writer")
        let changes = try context.performAndWait { () -> SaveChanges in
            try context.existingObject(with: seeded.items[1]).setValue(.double(10), forKey: "price")
            try context.existingObject(with: seeded.items[2]).setValue(.double(4.5), forKey: "price")
            guard case .saved(let changes) = try context.save() else { Issue.record("nothing saved"); return SaveChanges() }
            let loadedOrders = context.registeredObjects.filter { $0.entity.name == "Order" && !$0.faulted }
            #expect(loadedOrders.isEmpty, "the order was not loaded to add to its total")
            #expect(!context.hasChanges)
            return changes
        }
        #expect(changes.updated.contains(seeded.order))
        #expect(changes.changedKeys[seeded.order] == ["total"])
        #expect(changes.carriesSnapshots, "the state the store wrote travels with the save")
        let (total, count) = try stored(store, seeded.order)
        #expect(total == .double(15.5))
        #expect(count == .integer(3))
    }

    @Test("two writers' differences add up, without a conflict under the error policy", arguments: StoreKind.allCases)
    func twoWritersDifferencesAddUp(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let seeded = try seed(store, prices: [1, 2, 4])
        let first = try store.context("first", policy: .error)
        let second = try store.context("second", policy: .error)
        // Both hold the order loaded at the same version.
        for context in [first, second] {
            let total = try context.performAndWait { () throws -> Value in try context.existingObject(with: seeded.order).value(forKey: "total") }
            #expect(total == .double(7))
        }
        try first.performAndWait {
            try first.existingObject(with: seeded.items[0]).setValue(.double(6), forKey: "price")
            try first.save()
        }
        try second.performAndWait {
            try second.existingObject(with: seeded.items[2]).setValue(.double(11), forKey: "price")
            try second.save()
        }
        #expect(try stored(store, seeded.order).total == .double(19))
        // The second context's order shows the stored total (both writers' differences), and a
        // later edit of it saves without a conflict.
        try second.performAndWait {
            let order = try second.existingObject(with: seeded.order)
            #expect(try order.value(forKey: "total") == .double(19))
            try order.setValue(.string("renamed"), forKey: "title")
            try second.save()
        }
        #expect(try stored(store, seeded.order).total == .double(19))
    }

    @Test("the saving context's loaded order shows the stored total, and its observers are told", arguments: StoreKind.allCases)
    func theSavingContextSeesTheStoredTotal(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let seeded = try seed(store, prices: [1, 2, 4])
        let context = try store.context("writer")
        let main = try store.context("main")
        let told = Mutex<[ObjectID]>([])
        let token = context.addObjectsDidChangeObserver { change in
            told.withLock { $0 += change.refreshed.map(\.objectID) }
        }
        defer { token.cancel() }
        try main.performAndWait { _ = try main.existingObject(with: seeded.order).value(forKey: "total") }
        let changes = try context.performAndWait { () -> SaveChanges in
            let order = try context.existingObject(with: seeded.order)
            #expect(try order.value(forKey: "total") == .double(7))
            try context.existingObject(with: seeded.items[0]).setValue(.double(3), forKey: "price")
            guard case .saved(let changes) = try context.save() else { return SaveChanges() }
            #expect(try order.value(forKey: "total") == .double(9))
            #expect(!order.hasChanges && !context.hasChanges, "the order is not a changed object")
            return changes
        }
        #expect(told.withLock { $0 }.contains(seeded.order))
        // Another context holding the order takes the total from the merged save.
        let merged = try main.performAndWait { () throws -> Value in
            main.merge(fromDidSave: changes)
            return try main.existingObject(with: seeded.order).value(forKey: "total")
        }
        #expect(merged == .double(9))
    }

    @Test("an order the same save changes takes its differences in memory", arguments: StoreKind.allCases)
    func aChangedOrderTakesItsDifferencesInMemory(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let seeded = try seed(store, prices: [1, 2, 4])
        let context = try store.context("writer")
        try context.performAndWait {
            let order = try context.existingObject(with: seeded.order)
            try order.setValue(.string("renamed"), forKey: "title")
            try context.existingObject(with: seeded.items[1]).setValue(.double(5), forKey: "price")
            try context.save()
            #expect(try order.value(forKey: "total") == .double(10))
        }
        #expect(try stored(store, seeded.order) == (.double(10), .integer(3)))
    }

    @Test("a writer whose loaded total is stale adds to what the store holds", arguments: StoreKind.allCases)
    func aStaleTotalIsNeverWrittenBack(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.counted(withTotal: true))
        let seeded = try seed(store, prices: [1, 2])
        let writer = try store.context("writer")
        let item = try writer.performAndWait { () -> ManagedObject in
            let item = try writer.existingObject(with: seeded.items[0])
            _ = try item.value(forKey: "price")
            return item
        }
        // Another writer moves the total first; this writer's difference is added to it.
        let other = try store.context("other")
        try other.performAndWait {
            try other.existingObject(with: seeded.items[1]).setValue(.double(7), forKey: "price")
            try other.save()
        }
        try writer.performAndWait {
            try item.setValue(.double(3), forKey: "price")
            try writer.save()
        }
        #expect(try stored(store, seeded.order).total == .double(10))
    }
}
