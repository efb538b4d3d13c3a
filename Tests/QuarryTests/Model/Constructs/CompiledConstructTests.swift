import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The compiled-model decoder recognises the archived classes of the model constructs: a
/// derived attribute keeps its key-path expression, so the compiled and Xcode forms of a model
/// stay equal; fetched properties are named in a warning.
@Suite struct CompiledConstructTests {
    @Test func anArchivedDerivedAttributeKeepsItsKeyPathExpression() throws {
        var count = ModelArchiveFixture.Attribute(name: "itemCount", code: 300)
        count.derivationKeyPath = "items.@count"
        let data = try ModelArchiveFixture.archive([
            .init(name: "Item", relationships: [.init(name: "order", destination: "Order", inverse: "items", maxCount: 1)]),
            .init(name: "Order", attributes: [count], relationships: [.init(name: "items", destination: "Item", inverse: "order")],
                  fetchedProperties: ["recentItems"]),
        ])
        let compiled = try ManagedObjectModel.load(compiledModelData: data, path: "Order.mom")
        #expect(compiled.entity(named: "Order")?.attribute("itemCount")?.derivationExpression == "items.@count")
        #expect(compiled.warnings.map(\.name) == ["coredata.fetched-property"])

        var builder = ModelBuilder()
        builder.entity("Item") { e in e.toOne("order", destination: "Order", inverse: "items") }
        builder.entity("Order") { e in
            e.derived("itemCount", .integer64, "items.@count")
            e.toMany("items", destination: "Item", inverse: "order")
        }
        #expect(compiled == (try builder.build()))
    }
}
