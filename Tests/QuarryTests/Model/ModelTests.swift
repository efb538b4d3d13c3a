import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Resolving and validating model definitions: what a good model looks like once resolved, and
/// which ``ModelError`` each kind of mistake gives.
@Suite struct ModelTests {
    /// The version hash of ``TestModels/tickerDefinition()``, computed once. It must not change
    /// unless the schema text hashed by the resolver changes on purpose (stores compare it).
    static let tickerVersionHash = "5e79e7420a697aeae1988462cafbbabb96e2f597b37dd6d0fd9207aa93ccc221"

    private func build(_ configure: (inout ModelBuilder) -> Void) throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        configure(&builder)
        return try builder.build()
    }

    // MARK: Version hash

    @Test func tickerVersionHashIsStable() throws {
        #expect(TestModels.tickers().versionHash == Self.tickerVersionHash)
        let xcode = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Tickers.xcdatamodel"))
        #expect(xcode.versionHash == Self.tickerVersionHash)
    }

    @Test func versionHashChangesWithAnAttributeType() throws {
        var definition = TestModels.tickerDefinition()
        let ticker = definition.entities.firstIndex { $0.name == "Ticker" }!
        let volume = definition.entities[ticker].attributes.firstIndex { $0.name == "volume" }!
        definition.entities[ticker].attributes[volume].type = .integer32
        let changed = try ManagedObjectModel(definition)
        #expect(changed.versionHash != Self.tickerVersionHash)
        #expect(changed.entity(named: "Ticker")?.versionHash != TestModels.tickers().entity(named: "Ticker")?.versionHash)
        #expect(changed.entity(named: "Quote")?.versionHash == TestModels.tickers().entity(named: "Quote")?.versionHash)
    }

    @Test func versionHashIgnoresPropertyOrderAndDefaults() throws {
        var definition = TestModels.tickerDefinition()
        definition.entities.reverse()
        for i in definition.entities.indices { definition.entities[i].attributes.reverse() }
        let ticker = definition.entities.firstIndex { $0.name == "Ticker" }!
        let price = definition.entities[ticker].attributes.firstIndex { $0.name == "price" }!
        definition.entities[ticker].attributes[price].defaultValue = .double(1)
        #expect(try ManagedObjectModel(definition).versionHash == Self.tickerVersionHash)
    }

    // MARK: Resolution

    @Test func inheritedPropertiesComeFirstInParentOrder() throws {
        let model = TestModels.tickers()
        let bond = try #require(model.entity(named: "Bond"))
        #expect(bond.attributes.map(\.name) == ["code", "value", "coupon", "maturity"])
        #expect(bond.parentName == "Asset")
        #expect(bond.rootName == "Asset")
        let asset = try #require(model.entity(named: "Asset"))
        #expect(asset.isAbstract)
        #expect(asset.subentityNames.sorted() == ["Bond", "Stock"])
        #expect(asset.hasSubentities)
        #expect(bond.isKind(of: asset))
        #expect(!asset.isKind(of: bond))
        #expect(bond.attributeIndex("code") == asset.attributeIndex("code"))
    }

    @Test func defaultsAreCoercedToTheAttributeType() throws {
        let model = try build { b in
            b.entity("A") { e in
                e.attribute("ratio", .double, default: .integer(2))
                e.attribute("when", .date, default: .double(0))
            }
        }
        let a = try #require(model.entity(named: "A"))
        #expect(a.attribute("ratio")?.defaultValue == .double(2))
        #expect(a.attribute("when")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 0)))
    }

    @Test func modelsWithTheSameDefinitionInAnyOrderAreEqual() throws {
        var shuffled = TestModels.tickerDefinition()
        shuffled.entities.shuffle()
        #expect(try ManagedObjectModel(shuffled) == TestModels.tickers())
    }

    // MARK: Validation errors

    @Test func unknownParentNamesEntityAndParent() {
        #expect(throws: ModelError.unknownParent(entity: "Stock", parent: "Asset")) {
            try build { $0.entity("Stock", parent: "Asset") }
        }
    }

    @Test func inheritanceCycleNamesAnEntityOfTheCycle() {
        #expect(throws: ModelError.inheritanceCycle(entity: "A")) {
            try build { b in
                b.entity("A", parent: "B")
                b.entity("B", parent: "A")
            }
        }
        #expect(throws: ModelError.inheritanceCycle(entity: "Self")) {
            try build { $0.entity("Self", parent: "Self") }
        }
    }

    @Test func inverseThatIsNotARelationshipIsAMismatch() {
        #expect(throws: ModelError.inverseMismatch(
            entity: "A", relationship: "bs", reason: "inverse 'a' is not a relationship of 'B'")) {
            try build { b in
                b.entity("A") { $0.toMany("bs", destination: "B", inverse: "a") }
                b.entity("B") { $0.attribute("a", .string) }
            }
        }
    }

    @Test func inverseThatNamesAnotherRelationshipIsAMismatch() {
        #expect(throws: ModelError.inverseMismatch(
            entity: "A", relationship: "bs", reason: "inverse 'B.a' names 'others' as its inverse")) {
            try build { b in
                b.entity("A") { e in
                    e.toMany("bs", destination: "B", inverse: "a")
                    e.toMany("others", destination: "B", inverse: "a")
                }
                b.entity("B") { $0.toOne("a", destination: "A", inverse: "others") }
            }
        }
    }

    @Test func inverseThatPointsElsewhereIsAMismatch() {
        #expect(throws: ModelError.inverseMismatch(
            entity: "A", relationship: "bs", reason: "inverse 'B.c' points to 'C', not 'A'")) {
            try build { b in
                b.entity("A") { $0.toMany("bs", destination: "B", inverse: "c") }
                b.entity("B") { $0.toOne("c", destination: "C") }
                b.entity("C")
            }
        }
    }

    @Test func unknownAndMissingDestinations() {
        #expect(throws: ModelError.unknownDestination(entity: "A", relationship: "b", destination: "B")) {
            try build { $0.entity("A") { $0.toOne("b", destination: "B") } }
        }
        #expect(throws: ModelError.missingDestination(entity: "A", relationship: "b")) {
            try build { $0.entity("A") { $0.toOne("b", destination: "") } }
        }
    }

    @Test func duplicatePropertyNamesEntityAndProperty() {
        #expect(throws: ModelError.duplicateProperty(entity: "A", property: "x")) {
            try build { b in
                b.entity("A") { e in
                    e.attribute("x", .string)
                    e.toOne("x", destination: "A")
                }
            }
        }
    }

    @Test func redeclaringAnInheritedPropertyIsADuplicate() {
        #expect(throws: ModelError.duplicateProperty(entity: "Stock", property: "code")) {
            try build { b in
                b.entity("Asset", abstract: true) { $0.attribute("code", .string) }
                b.entity("Stock", parent: "Asset") { $0.attribute("code", .string) }
            }
        }
    }

    @Test func duplicateEntityIsNamed() {
        #expect(throws: ModelError.duplicateEntity("A")) {
            try build { b in
                b.entity("A")
                b.entity("A")
            }
        }
    }

    @Test(arguments: ["", "1st", "has space", "dash-ed"])
    func invalidEntityNamesAreRefused(name: String) {
        #expect(throws: ModelError.invalidName(name)) { try build { $0.entity(name) } }
    }

    @Test func invalidPropertyNameNamesEntityAndProperty() {
        #expect(throws: ModelError.invalidName("A.bad name")) {
            try build { $0.entity("A") { $0.attribute("bad name", .string) } }
        }
    }

    @Test func indexNamingAnUnknownAttributeNamesTheIndex() {
        #expect(throws: ModelError.unknownAttribute(entity: "A", attribute: "y", usedIn: "index 'byXY'")) {
            try build { b in
                b.entity("A") { e in
                    e.attribute("x", .string)
                    e.index("byXY", "x", "y")
                }
            }
        }
    }

    @Test func uniquenessConstraintNamingAnUnknownAttributeIsRefused() {
        #expect(throws: ModelError.unknownAttribute(entity: "A", attribute: "y", usedIn: "uniqueness constraint")) {
            try build { b in
                b.entity("A") { e in
                    e.attribute("x", .string)
                    e.unique("y")
                }
            }
        }
    }

    @Test func invalidDefaultNamesEntityAttributeAndValue() {
        #expect(throws: ModelError.invalidDefault(entity: "A", attribute: "n", value: "70000")) {
            try build { $0.entity("A") { $0.attribute("n", .integer16, default: .integer(70000)) } }
        }
        #expect(throws: ModelError.invalidDefault(entity: "A", attribute: "id", value: "'not-a-uuid'")) {
            try build { $0.entity("A") { $0.attribute("id", .uuid, default: .string("not-a-uuid")) } }
        }
    }

    @Test func invalidInheritedDefaultNamesTheDeclaringEntity() {
        #expect(throws: ModelError.invalidDefault(entity: "Base", attribute: "flag", value: "'maybe'")) {
            try build { b in
                b.entity("Base", abstract: true) { $0.attribute("flag", .boolean, default: .string("maybe")) }
                b.entity("Leaf", parent: "Base")
            }
        }
    }

    @Test func errorMessagesNameWhatIsAtFault() {
        #expect(ModelError.duplicateProperty(entity: "A", property: "x").description
            == "entity 'A' declares property 'x' more than once")
        #expect(ModelError.malformedFile(path: "m/contents", line: 3, column: 7, reason: "bad").description
            == "m/contents:3:7: bad")
        #expect(ModelError.unsupported(path: "m/contents", line: 4, feature: "attribute type 'X' of 'A.b'").description
            == "m/contents:4: unsupported: attribute type 'X' of 'A.b'")
    }
}
