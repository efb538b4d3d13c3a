import Foundation
@testable import Quarry
import QuarryTestSupport

/// The model with every construct Xcode writes beyond entities, attributes and relationships:
/// derived attributes of each form, a composite attribute, fetched properties, fetch request
/// templates and configurations (`Fixtures/xcode/Shop.xcdatamodel`, `Fixtures/json/Shop.json`).
enum ShopFixture {
    static var xcodeURL: URL { XcodeFixtures.url("Shop.xcdatamodel") }
    static var jsonURL: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("json/Shop.json") }

    static func model() throws -> ManagedObjectModel { try ManagedObjectModel.load(xcodeModelAt: xcodeURL) }

    /// A minimal model whose `Order.itemCount` is `items.@count` (and `total` the items'
    /// `@sum.price`), for saves that must keep them right.
    static func counted(withTotal: Bool = true) throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        builder.entity("Order") { e in
            e.attribute("title", .string)
            e.derived("itemCount", .integer64, "items.@count")
            if withTotal { e.derived("total", .double, "items.@sum.price") }
            e.toMany("items", destination: "Item", inverse: "order", deleteRule: .cascade)
        }
        builder.entity("Item") { e in
            e.attribute("price", .double, default: .double(0))
            e.toOne("order", destination: "Order", inverse: "items")
        }
        return try builder.build()
    }
}
