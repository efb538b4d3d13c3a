import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry model` shows each model construct: derived attributes with their expressions,
/// composite attributes with their stored elements, fetched properties, fetch request
/// templates and configurations; no loader warning about them.
struct ModelConstructsCommandTests {
    let directory = TemporaryDirectory()

    @Test func theModelDescriptionShowsEveryConstruct() throws {
        var builder = ModelBuilder()
        builder.entity("Customer") { e in
            e.attribute("name", .string)
            e.composite("home", elements: [AttributeDescription(name: "city", type: .string)])
            e.toMany("orders", destination: "Order", inverse: "customer")
            e.fetchedProperty("neighbours", destination: "Customer", predicate: "home.city == $FETCH_SOURCE.home.city")
        }
        builder.entity("Order") { e in
            e.derived("customerName", .string, "customer.name")
            e.toOne("customer", destination: "Customer", inverse: "orders")
        }
        builder.fetchRequest("CustomersNamed", entity: "Customer", predicate: "name == $NAME")
        builder.configuration("Sales", entities: ["Customer", "Order"])
        let folder = directory.file("Shop.xcdatamodel")
        try QuarryExecutable.write(try builder.build().definition.xcodeContentsXML(), to: folder.appendingPathComponent("contents"))
        let result = try QuarryExecutable.run(["model", folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("customerName  String  optional  derived from customer.name"))
        #expect(text.contains("  composite attributes:"))
        #expect(text.contains("home  optional  type CustomerHome  stored as home.city"))
        #expect(text.contains("  fetched properties:"))
        #expect(text.contains("neighbours  -> Customer  where home.city == $FETCH_SOURCE.home.city"))
        #expect(text.contains("fetch request templates:"))
        #expect(text.contains("CustomersNamed  -> Customer  where name == $NAME"))
        #expect(text.contains("configurations:\n  Sales: Customer, Order"))
        #expect(text.contains("warnings: none"))
    }
}
