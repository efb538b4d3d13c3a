import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A derivation expression or fetched-property predicate that does not parse (or reads what
/// it cannot) refuses the model with an error naming the file, the entity, the property and
/// the column of the expression.
@Suite struct ModelConstructErrorTests {
    private func loadXcode(_ body: String) throws -> (ManagedObjectModel, String) {
        let directory = TemporaryDirectory()
        let url = try XcodeFixtures.write(XcodeFixtures.document(body), to: "Bad.xcdatamodel/contents", in: directory)
        return (try ManagedObjectModel.load(xcodeModelAt: url.deletingLastPathComponent()), url.path)
    }

    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return "\(error)" }
    }

    @Test func aDerivationThatDoesNotParseNamesFileLineEntityPropertyAndColumn() throws {
        let directory = TemporaryDirectory()
        let url = try XcodeFixtures.write(XcodeFixtures.document("""
            <entity name="Order" syncable="YES">
                <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@cnt"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Order"/>
            </entity>
            """), to: "Bad.xcdatamodel/contents", in: directory)
        let text = message { _ = try ManagedObjectModel.load(xcodeModelAt: url.deletingLastPathComponent()) }
        #expect(text == "\(url.path):4: derived attribute 'Order.count': derivation expression 'items.@cnt': unknown collection operator '@cnt' (@count, @sum, @avg, @min, @max) at column 7")
    }

    @Test func aDerivationOverAToManyWithoutOperatorIsRefused() throws {
        let text = message {
            var builder = ModelBuilder()
            builder.entity("Order") { e in
                e.derived("prices", .double, "items.price")
                e.toMany("items", destination: "Item", inverse: "order")
            }
            builder.entity("Item") { e in
                e.attribute("price", .double)
                e.toOne("order", destination: "Order", inverse: "items")
            }
            _ = try builder.build()
        }
        #expect(text.hasPrefix("derived attribute 'Order.prices': derivation expression 'items.price': 'items.price' crosses a to-many"))
        #expect(text.hasSuffix("(column 1)"))
    }

    @Test func aDerivationOfTheWrongTypeIsRefused() throws {
        let text = message {
            var builder = ModelBuilder()
            builder.entity("A") { e in
                e.attribute("name", .string)
                e.derived("when", .string, "now()")
                e.derived("upper", .integer64, "uppercase:(name)")
            }
            _ = try builder.build()
        }
        #expect(text.contains("derived attribute 'A."))
        #expect(text.contains("now() gives a date") || text.contains("uppercase: works on strings"))
    }

    @Test func aJSONDerivationFaultPointsAtTheExpressionsLineAndColumn() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Bad.json")
        try Data("""
            {"entities": [
              {"name": "Order", "attributes": [
                {"name": "lower", "type": "String", "derivation": "lowercase:(missing)"}
              ]}
            ]}
            """.utf8).write(to: url)
        let text = message { _ = try ManagedObjectModel.load(jsonAt: url) }
        #expect(text.hasPrefix("\(url.path):3:55: derived attribute 'Order.lower': derivation expression 'lowercase:(missing)': "))
        #expect(text.contains("'missing'"))
        #expect(text.hasSuffix("(column 12)"))
    }

    @Test func aFetchedPropertyPredicateThatDoesNotParseNamesFileEntityPropertyAndColumn() throws {
        let directory = TemporaryDirectory()
        let url = try XcodeFixtures.write(XcodeFixtures.document("""
            <entity name="Author" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchedProperty name="peers" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Author" predicateString="name == == $FETCH_SOURCE.name"/>
                </fetchedProperty>
            </entity>
            """), to: "Bad.xcdatamodel/contents", in: directory)
        let text = message { _ = try ManagedObjectModel.load(xcodeModelAt: url.deletingLastPathComponent()) }
        #expect(text.hasPrefix("\(url.path):5: fetched property 'Author.peers': predicate 'name == == $FETCH_SOURCE.name': unexpected '==' at column 9"))
    }

    @Test func aFetchedPropertyWithAnUnknownDestinationIsRefused() throws {
        let text = message {
            var builder = ModelBuilder()
            builder.entity("A") { e in e.fetchedProperty("others", destination: "Nowhere", predicate: "") }
            _ = try builder.build()
        }
        #expect(text == "fetched property 'A.others': destination 'Nowhere' is not in the model")
    }

    @Test func aCompositeWithoutItsTypeIsRefusedNamingTheFile() throws {
        let text = message {
            _ = try loadXcode("""
                <entity name="P" syncable="YES">
                    <attribute name="home" optional="YES" attributeType="Composite" composite="Address"/>
                </entity>
                """)
        }
        #expect(text.hasSuffix("Bad.xcdatamodel/contents:4: composite attribute 'P.home' names composite 'Address', which the model does not declare"))
    }

    @Test func templatesAndConfigurationsNamingUnknownEntitiesAreRefused() throws {
        var builder = ModelBuilder()
        builder.entity("A") { e in e.attribute("x", .string) }
        builder.fetchRequest("all", entity: "B", predicate: "")
        #expect(message { _ = try builder.build() } == "fetch request template 'all': entity 'B' is not in the model")
        var other = ModelBuilder()
        other.entity("A") { e in e.attribute("x", .string) }
        other.configuration("Cloud", entities: ["A", "Z"])
        #expect(message { _ = try other.build() } == "configuration 'Cloud': entity 'Z' is not in the model")
    }
}

extension ModelConstructErrorTests {
    @Test func aCompositeAttributeWithoutItsTypeNameIsRefusedWithItsLine() throws {
        #expect(throws: ModelError.malformedFile(path: "M.xcdatamodel/contents", line: 4, column: 0,
                                                 reason: "<composite attribute 'x'> in entity 'A' has no composite")) {
            try ModelDefinition.xcodeContents(Data(XcodeFixtures.document("""
                <entity name="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="Composite"/>
                </entity>
                """).utf8), path: "M.xcdatamodel/contents")
        }
    }
}
