import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Derived attributes, composite attributes, fetched properties, fetch request templates and
/// configurations are read from Xcode's XML and from JSON models alike, written back by both
/// writers, and never reported as skipped.
@Suite struct ModelConstructLoadingTests {
    /// The loader warnings earlier versions gave for these constructs.
    static let skippedConstructWarnings = [
        "skipped derived attribute", "fetched properties are not supported",
        "fetch request templates are not supported", "configurations are not supported",
        "composite attributes are not supported",
    ]

    @Test func xcodeAndJSONFormsOfTheShopModelAreEqual() throws {
        let xcode = try ShopFixture.model()
        let json = try ManagedObjectModel.load(jsonAt: ShopFixture.jsonURL)
        #expect(xcode == json)
        #expect(xcode.versionHash == json.versionHash)
        #expect(json.warnings.isEmpty)
        // Only the diagram layout is left out of the Xcode form.
        #expect(xcode.warnings.map(\.name) == [ModelWarning.xcodeIgnoredElement])
        #expect(xcode.warnings.first?.message.hasSuffix("ignored <elements> (diagram layout)") == true)
    }

    @Test func derivedAttributesKeepTheirExpressions() throws {
        let order = try #require(try ShopFixture.model().entity(named: "Order"))
        #expect(order.attribute("itemCount")?.derivationExpression == "items.@count")
        #expect(order.attribute("total")?.derivationExpression == "items.price.@sum")
        #expect(order.attribute("stamp")?.derivationExpression == "now()")
        #expect(order.attribute("title")?.isDerived == false)
        #expect(order.derivedAttributeIndices.map { order.attributes[$0].name }
            == ["customerName", "itemCount", "lowerTitle", "maxPrice", "searchTitle", "stamp", "total", "upperTitle"])
    }

    @Test func derivationExpressionsParseInEveryForm() throws {
        #expect(try DerivationExpression(parsing: "author.name") == .keyPath("author.name"))
        #expect(try DerivationExpression(parsing: "items.@count") == .keyPath("items.@count"))
        #expect(try DerivationExpression(parsing: "items.price.@sum") == .keyPath("items.@sum.price"))
        #expect(try DerivationExpression(parsing: "items.@avg.price") == .keyPath("items.@avg.price"))
        #expect(try DerivationExpression(parsing: " now() ") == .now)
        #expect(try DerivationExpression(parsing: "canonical:(name)") == .function(.canonical, "name"))
        #expect(try DerivationExpression(parsing: "lowercase:(name)").description == "lowercase:(name)")
        #expect(try DerivationExpression(parsing: "uppercase:( a.b )") == .function(.uppercase, "a.b"))
        #expect(throws: DerivationExpression.SyntaxError(column: 7, reason: "unexpected '+' in the key path")) {
            try DerivationExpression(parsing: "items.+count")
        }
        #expect(throws: DerivationExpression.SyntaxError(column: 1, reason: "unknown function 'trim' (canonical:, lowercase:, uppercase: or now())")) {
            try DerivationExpression(parsing: "trim:(name)")
        }
    }

    @Test func compositesFetchedPropertiesTemplatesAndConfigurationsAreKept() throws {
        let model = try ShopFixture.model()
        let customer = try #require(model.entity(named: "Customer"))
        let home = try #require(customer.compositeAttribute(named: "home"))
        #expect(home.typeName == "Address")
        #expect(home.elements.map(\.name) == ["city", "postcode"])
        #expect(customer.attribute("home.city")?.type == .string)
        #expect(customer.attribute("home.postcode")?.isOptional == true)
        #expect(customer.fetchedProperty(named: "neighbours")?.destination == "Customer")
        #expect(model.entity(named: "Order")?.fetchedProperty(named: "expensiveItems")?.predicate == "order == $FETCH_SOURCE AND price > 10")
        #expect(model.fetchRequestTemplates.map(\.name) == ["CustomersNamed", "OrdersAbove"])
        #expect(model.configurations == [
            ModelConfiguration(name: "Catalogue", entities: ["Item"]),
            ModelConfiguration(name: "Sales", entities: ["Customer", "Item", "Order"]),
        ])
    }

    @Test func bothWritersWriteEveryConstructBack() throws {
        let model = try ShopFixture.model()
        let xml = model.definition.xcodeContentsXML()
        #expect(model.definition.xcodeContentsLosses().isEmpty)
        for fragment in ["derived=\"YES\" derivationExpression=\"items.@count\"", "attributeType=\"Composite\" composite=\"Address\"",
                         "<composite name=\"Address\">", "<fetchedProperty name=\"neighbours\" optional=\"YES\">",
                         "<fetchRequest name=\"OrdersAbove\" entity=\"Order\" predicateString=\"total &gt; $MINIMUM\"/>",
                         "<configuration name=\"Catalogue\">", "<memberEntity name=\"Item\"/>"] {
            #expect(xml.contains(fragment), "missing \(fragment)")
        }
        let fromXML = try ManagedObjectModel(try ModelDefinition(xcodeContents: Data(xml.utf8), path: "Shop/contents"))
        #expect(fromXML == model)
        #expect(fromXML.definition == model.definition)
        let fromJSON = try ManagedObjectModel(try ModelDefinition(jsonText: model.definition.jsonText(), path: "Shop.json"))
        #expect(fromJSON.definition == model.definition)
    }

    @Test func theModelDescriptionShowsEachConstruct() throws {
        let model = try ShopFixture.model()
        let text = try ModelDefinition(jsonText: model.definition.jsonText(), path: "x").jsonText()
        #expect(text.contains("\"derivation\": \"items.@count\""))
        #expect(text.contains("\"composites\": ["))
        #expect(text.contains("\"fetchedProperties\": ["))
        #expect(text.contains("\"fetchRequests\": ["))
        #expect(text.contains("\"configurations\": ["))
    }

    @Test func everyCorpusModelLoadsWithoutSkippedConstructWarnings() throws {
        let models = ModelCorpus.xcodeModels()
        guard !models.isEmpty else {
            print("skipped: no model corpus at ../shared/corpus/models")
            return
        }
        for url in models {
            let model = try ManagedObjectModel.load(xcodeModelAt: url)
            for warning in model.warnings {
                for phrase in Self.skippedConstructWarnings {
                    #expect(!warning.message.contains(phrase), "\(url.path): \(warning)")
                }
                #expect(warning.name != ModelWarning.xcodeDerivedAttribute)
            }
        }
    }
}
