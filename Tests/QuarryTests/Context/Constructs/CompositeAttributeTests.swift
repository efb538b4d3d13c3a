import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A composite attribute is stored flattened (one column per element, `home.city`) and read
/// and written as one dictionary value, on every back end.
@Suite struct CompositeAttributeTests {
    @Test(arguments: StoreKind.allCases)
    func aCompositeIsWrittenAndReadAsOneValue(kind: StoreKind) throws {
        let store = TestStore(kind, model: try ShopFixture.model())
        let context = try store.context()
        try context.performAndWait {
            let customer = try context.insertObject(entityName: "Customer")
            try customer.setValue(.string("Ann"), forKey: "name")
            try customer.setValue(.json(.object(["city": .string("Oslo"), "postcode": .string("0150")])), forKey: "home")
            let other = try context.insertObject(entityName: "Customer")
            try other.setValue(.string("Bo"), forKey: "name")
            try context.save()
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let found = try reader.fetch(FetchRequest(entityName: "Customer", predicate: try ObjectPredicate(format: "home.city == 'Oslo'")))
            #expect(found.count == 1)
            let ann = try #require(found.first)
            #expect(try ann.value(forKey: "home") == .json(.object(["city": .string("Oslo"), "postcode": .string("0150")])))
            #expect(try ann.compositeValues(forKey: "home") == ["city": .string("Oslo"), "postcode": .string("0150")])
            #expect(try ann.value(forKey: "home.postcode") == .string("0150"))
            let bo = try reader.fetch(FetchRequest(entityName: "Customer", predicate: try ObjectPredicate(format: "name == 'Bo'")))[0]
            #expect(try bo.value(forKey: "home") == .null)
        }
    }

    @Test func aBadCompositeValueChangesNothing() throws {
        let store = TestStore(.memory, model: try ShopFixture.model())
        let context = try store.context()
        try context.performAndWait {
            let customer = try context.insertObject(entityName: "Customer")
            try customer.setCompositeValues(["city": .string("Oslo")], forKey: "home")
            #expect(throws: QuarryError.unknownKey(entity: "Customer", key: "home.street")) {
                try customer.setCompositeValues(["street": .string("x")], forKey: "home")
            }
            #expect(throws: QuarryError.typeMismatch(entity: "Customer", key: "home.postcode", expected: "String", got: "5")) {
                try customer.setCompositeValues(["city": .string("Rome"), "postcode": .integer(5)], forKey: "home")
            }
            #expect(try customer.compositeValues(forKey: "home") == ["city": .string("Oslo")])
            #expect(throws: QuarryError.self) { try customer.setValue(.integer(1), forKey: "home") }
        }
    }
}
