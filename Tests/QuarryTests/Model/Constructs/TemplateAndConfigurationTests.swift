import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Fetch request templates are callable by name with substitutions; a store can be opened for
/// one configuration, holding its entities only.
@Suite struct TemplateAndConfigurationTests {
    @Test func aTemplateIsCalledByNameWithItsSubstitutions() throws {
        let model = try ShopFixture.model()
        let request = try model.fetchRequest(named: "CustomersNamed", substitutions: ["NAME": .string("Ann")])
        #expect(request.entityName == "Customer")
        #expect(request.predicate == (try ObjectPredicate(format: "name == 'Ann'")))
        #expect(throws: QueryError.unboundVariable("NAME")) { try model.fetchRequest(named: "CustomersNamed") }
        #expect(throws: QueryError.invalidOperand("the model has no fetch request template named 'Nope' (templates: CustomersNamed, OrdersAbove)")) {
            try model.fetchRequest(named: "Nope")
        }

        let store = TestStore(.sqlite, model: model)
        let context = try store.context()
        try context.performAndWait {
            for name in ["Ann", "Bo"] {
                let customer = try context.insertObject(entityName: "Customer")
                try customer.setValue(.string(name), forKey: "name")
            }
            try context.save()
            let found = try context.fetch(try model.fetchRequest(named: "CustomersNamed", substitutions: ["NAME": .string("Bo")]))
            #expect(try found.map { try $0.value(forKey: "name") } == [.string("Bo")])
        }
    }

    @Test func aConfigurationKeepsItsEntitiesAndDropsRelationshipsLeavingIt() throws {
        let model = try ShopFixture.model()
        let catalogue = try model.forConfiguration("Catalogue")
        #expect(catalogue.entities.map(\.name) == ["Item"])
        #expect(catalogue.entity(named: "Item")?.relationship("order") == nil)
        #expect(try model.forConfiguration("Sales").entities.count == 3)
        #expect(try model.forConfiguration("Default") === model)
        #expect(throws: ModelError.invalidConfiguration(name: "Cloud", reason: "the model has no such configuration (it has Catalogue, Sales)")) {
            try model.forConfiguration("Cloud")
        }
    }

    @Test func aStackOpensAStoreForOneConfiguration() throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("catalogue.sqlite")
        options.configuration = "Catalogue"
        options.watchesRemoteChanges = false
        let stack = try PersistentStack(model: try ShopFixture.model(), options: options)
        #expect(stack.model.entities.map(\.name) == ["Item"])
        let context = stack.mainContext
        try context.performAndWait {
            let item = try context.insertObject(entityName: "Item")
            try item.setValue(.double(3), forKey: "price")
            try context.save()
            #expect(throws: QuarryError.unknownEntity("Order")) { try context.insertObject(entityName: "Order") }
        }
    }
}
