import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// How Xcode's elements map onto Quarry definitions, read from a model with inheritance,
/// indexes and the elements Quarry skips.
@Suite struct XcodeContentsMappingTests {
    private let library: ManagedObjectModel

    init() throws {
        library = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Library.xcdatamodel"))
    }

    private func parse(_ body: String) throws -> (definition: ModelDefinition, warnings: [ModelWarning]) {
        try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "M.xcdatamodel/contents")
    }

    @Test func inheritanceAndAbstractEntities() throws {
        let work = try #require(library.entity(named: "Work"))
        let book = try #require(library.entity(named: "Book"))
        #expect(work.isAbstract)
        #expect(!book.isAbstract)
        #expect(book.parentName == "Work")
        #expect(book.rootName == "Work")
        #expect(book.isKind(of: work))
        #expect(work.subentityNames.sorted() == ["Book", "Recording"])
        #expect(book.attributes.map(\.name) == ["added", "link", "price", "title", "year", "isbn", "pages"])
        #expect(book.relationship("author")?.destination == "Author")
        #expect(book.className == "Book")
    }

    @Test func attributesKeepTypesOptionalityDefaultsAndRules() throws {
        let book = try #require(library.entity(named: "Book"))
        #expect(book.attribute("title") == AttributeDescription(
            name: "title", type: .string, isOptional: false, defaultValue: .string("Untitled")))
        #expect(book.attribute("year")?.type == .integer16)
        #expect(book.attribute("year")?.defaultValue == .integer(0))
        #expect(book.attribute("price")?.defaultValue == .decimal(Decimal(string: "9.99")!))
        #expect(book.attribute("added")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(book.attribute("link")?.type == .uri)
        #expect(book.attribute("pages") == AttributeDescription(
            name: "pages", type: .integer32, defaultValue: .integer(1), minValue: 1))
        #expect(book.attribute("isbn")?.regularExpression == "[0-9-]{10,17}")
        let recording = try #require(library.entity(named: "Recording"))
        #expect(recording.attribute("duration")?.defaultValue == .double(0))
        #expect(recording.attribute("sample")?.type == .binary)
        let author = try #require(library.entity(named: "Author"))
        #expect(author.attribute("id")?.type == .uuid)
        #expect(author.attribute("id")?.isOptional == false)
        #expect(author.attribute("profile")?.type == .transformable)
    }

    @Test func relationshipsKeepCardinalityRuleAndInverse() throws {
        let author = try #require(library.entity(named: "Author"))
        #expect(author.relationship("works") == RelationshipDescription(
            name: "works", destination: "Work", inverse: "author", isToMany: true, deleteRule: .cascade))
        let work = try #require(library.entity(named: "Work"))
        // maxCount="1" marks a to-one in Xcode; it is not a count limit.
        #expect(work.relationship("author") == RelationshipDescription(
            name: "author", destination: "Author", inverse: "works", isOptional: false))
    }

    @Test func toManyCountsAndOrderAreKept() throws {
        let (definition, _) = try parse("""
            <entity name="A" syncable="YES">
                <relationship name="bs" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="No Action" destinationEntity="A"/>
            </entity>
            """)
        #expect(definition.entities[0].relationships == [RelationshipDescription(
            name: "bs", destination: "A", isToMany: true, isOrdered: true, isOptional: false,
            deleteRule: .noAction, minCount: 1, maxCount: 5)])
    }

    @Test func indexesAndUniquenessConstraints() throws {
        let author = try #require(library.entity(named: "Author"))
        #expect(author.indexes == [IndexDescription(name: "byNameIndex", attributes: ["name"])])
        #expect(author.uniquenessConstraints == [["id"]])
        let work = try #require(library.entity(named: "Work"))
        #expect(work.indexes == [IndexDescription(name: "compound_title_year", attributes: ["title", "year"])])
        #expect(library.entity(named: "Book")?.indexes == work.indexes)
    }

    @Test func multiAttributeUniquenessConstraintKeepsItsAttributes() throws {
        let (definition, _) = try parse("""
            <entity name="A" syncable="YES">
                <attribute name="x" attributeType="String"/>
                <attribute name="y" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="x"/>
                        <constraint value="y"/>
                    </uniquenessConstraint>
                    <uniquenessConstraint>
                        <constraint value="y"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """)
        #expect(definition.entities[0].uniquenessConstraints == [["x", "y"], ["y"]])
    }

    @Test func ignoredElementsBecomeNamedWarningsWithFileAndLine() throws {
        let path = XcodeFixtures.url("Library.xcdatamodel/contents").path
        let ignored = library.warnings.filter { $0.name == ModelWarning.xcodeIgnoredElement }
        // Fetched properties, fetch request templates and configurations are read, not ignored.
        #expect(ignored.map(\.message) == [
            "\(path):20: ignored <userInfo> (user info)",
            "\(path):51: ignored <elements> (diagram layout)",
        ])
        #expect(ModelWarning.xcodeIgnoredElement == "xcode.ignored-element")
    }

    @Test func derivedAttributesFetchedPropertiesTemplatesAndConfigurationsAreRead() throws {
        #expect(library.entity(named: "Author")?.attribute("bookCount")?.derivationExpression == "works.@count")
        #expect(!library.warnings.contains { $0.name == ModelWarning.xcodeDerivedAttribute })
        #expect(library.entity(named: "Author")?.fetchedProperty(named: "recentWorks")
            == FetchedPropertyDescription(name: "recentWorks", destination: "Work", predicate: "year > 2000", isOptional: true))
        #expect(library.fetchRequestTemplates == [FetchRequestTemplate(name: "RecentBooks", entity: "Book", predicate: "year > 2020")])
        #expect(library.configurations == [ModelConfiguration(name: "Cloud", entities: ["Author", "Work"])])
    }

    @Test func valueTransformerNameIsKeptForItsAttribute() throws {
        #expect(library.entity(named: "Author")?.attribute("profile")?.valueTransformerName == "NSSecureUnarchiveFromDataTransformer")
        #expect(!library.warnings.contains { $0.message.contains("profile") })
    }

    @Test func fetchIndexPartsQuarryCannotReproduceAreNoted() throws {
        let (definition, warnings) = try parse("""
            <entity name="P" syncable="YES">
                <attribute name="lat" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchIndex name="byName">
                    <fetchIndexElement property="name" type="Binary" order="descending"/>
                    <fetchIndexElement expression="name.length" expressionType="Integer 64" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byLocation">
                    <fetchIndexElement property="lat" type="RTree"/>
                </fetchIndex>
            </entity>
            """)
        #expect(definition.entities[0].indexes == [
            IndexDescription(name: "byName", attributes: ["name"]),
            IndexDescription(name: "byLocation", attributes: ["lat"]),
        ])
        #expect(warnings.map(\.name) == Array(repeating: ModelWarning.xcodeFetchIndex, count: 3))
        #expect(warnings.map(\.message) == [
            "M.xcdatamodel/contents:7: fetch index 'P.byName' element 'name' is descending; Quarry indexes ascending",
            "M.xcdatamodel/contents:8: skipped expression element of fetch index 'P.byName'",
            "M.xcdatamodel/contents:11: fetch index 'P.byLocation' of type 'RTree' is made a plain index",
        ])
    }

    @Test func unknownElementsAreSkippedNotFatal() throws {
        let (definition, warnings) = try parse("""
            <entity name="A" syncable="YES">
                <attribute name="x" optional="YES" attributeType="String">
                    <userInfo><entry key="k" value="v"/></userInfo>
                </attribute>
                <sparkles count="3"><sparkle/></sparkles>
            </entity>
            <composite name="Address">
                <attribute name="street" optional="YES" attributeType="String"/>
            </composite>
            """)
        #expect(definition.entities.map(\.name) == ["A"])
        #expect(definition.entities[0].attributes.map(\.name) == ["x"])
        // A composite type no attribute uses is read and left unused, without a warning.
        #expect(warnings.map(\.message) == [
            "M.xcdatamodel/contents:5: ignored <userInfo> (user info)",
            "M.xcdatamodel/contents:7: ignored <sparkles>: not a Core Data model element Quarry knows",
        ])
    }

    @Test func representedClassNameIsKept() throws {
        #expect(library.entity(named: "Author")?.className == "Author")
        #expect(TestModels.tickers().entity(named: "Ticker")?.className == nil)
    }
}
