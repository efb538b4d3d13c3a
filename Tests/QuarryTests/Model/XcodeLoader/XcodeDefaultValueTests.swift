import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Default values Xcode writes and Core Data accepts although they do not fit the type as
/// written (issue 16, real-world item 1): they load, read as Core Data reads them, each with a
/// named warning; a default that fits no reading is still refused by name.
struct XcodeDefaultValueTests {
    private func load(_ attributes: String) throws -> ManagedObjectModel {
        let body = "<entity name=\"E\" syncable=\"YES\">\n\(attributes)\n</entity>"
        let (definition, warnings) = try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "M.xcdatamodel/contents")
        return try ManagedObjectModel(definition, warnings: warnings)
    }

    @Test func lenientDefaultsLoadWithAWarningEach() throws {
        let model = try load("""
            <attribute name="on" optional="YES" attributeType="Boolean" defaultValueString="1.0" usesScalarValueType="YES"/>
            <attribute name="off" optional="YES" attributeType="Boolean" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
            <attribute name="count" optional="YES" attributeType="Integer 32" defaultValueString="YES" usesScalarValueType="YES"/>
            <attribute name="none" optional="YES" attributeType="Integer 16" defaultValueString="NO" usesScalarValueType="YES"/>
            <attribute name="blob" optional="YES" attributeType="Binary" defaultValueString=""/>
            <attribute name="image" optional="YES" attributeType="Binary" defaultValueString="abc"/>
            """)
        let entity = try #require(model.entity(named: "E"))
        #expect(entity.attribute("on")?.defaultValue == .bool(true))
        #expect(entity.attribute("off")?.defaultValue == .bool(false))
        #expect(entity.attribute("flag")?.defaultValue == .bool(true))
        #expect(entity.attribute("count")?.defaultValue == .integer(1))
        #expect(entity.attribute("none")?.defaultValue == .integer(0))
        #expect(entity.attribute("blob")?.defaultValue == nil)
        #expect(entity.attribute("image")?.defaultValue == nil)
        let notes = model.warnings.filter { $0.name == ModelWarning.xcodeDefaultValue }.map(\.message)
        #expect(notes.count == 5)
        #expect(notes.contains { $0.contains("'E.on': Boolean default '1.0' read as YES") })
        #expect(notes.contains { $0.contains("'E.count': integer default 'YES' read as 1") })
        #expect(notes.contains { $0.contains("'E.image': Binary default ignored") })
        #expect(notes.allSatisfy { $0.hasPrefix("M.xcdatamodel/contents:") })
    }

    /// Issue 34, item 8: Core Data loads these models and uses no default, so Quarry drops the
    /// default with a warning naming the file, line, entity and attribute (this refused the
    /// whole model before).
    @Test func aDefaultThatFitsNoReadingIsDroppedWithAWarningNamingIt() throws {
        let model = try load("""
            <attribute name="id" optional="YES" attributeType="UUID" defaultValueString="not-a-uuid" usesScalarValueType="NO"/>
            <attribute name="n" optional="YES" attributeType="Integer 64" defaultValueString="many" usesScalarValueType="YES"/>
            <attribute name="small" optional="YES" attributeType="Integer 16" defaultValueString="70000" usesScalarValueType="YES"/>
            <attribute name="when" optional="YES" attributeType="Date" defaultValueString="today"/>
            <attribute name="kept" optional="YES" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
            """)
        let entity = try #require(model.entity(named: "E"))
        for name in ["id", "n", "small", "when"] {
            #expect(entity.attribute(name)?.defaultValue == nil, "\(name)")
        }
        #expect(entity.attribute("kept")?.defaultValue == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        let notes = model.warnings.filter { $0.name == ModelWarning.xcodeDefaultValue }.map(\.message)
        #expect(notes.count == 4)
        #expect(notes.contains("M.xcdatamodel/contents:4: 'E.id': default 'not-a-uuid' is not a UUID; dropped, as Core Data uses no default then"))
        #expect(notes.contains { $0.contains("'E.n': default 'many' is not an integer") })
        #expect(notes.contains { $0.contains("'E.small': default '70000' is not an integer that fits Integer 16") })
        #expect(notes.allSatisfy { $0.hasPrefix("M.xcdatamodel/contents:") })
    }

    /// A model through the whole loader: the warning is on the model `quarry model` prints.
    @Test func aModelFileWithAnUnfitDefaultLoadsFromDisk() throws {
        let dir = TemporaryDirectory()
        let body = "<entity name=\"E\" syncable=\"YES\">\n<attribute name=\"id\" optional=\"YES\" attributeType=\"UUID\" defaultValueString=\"0\"/>\n</entity>"
        let url = try XcodeFixtures.write(XcodeFixtures.document(body), to: "M.xcdatamodel/contents", in: dir)
        let model = try ManagedObjectModel.load(xcodeModelAt: dir.file("M.xcdatamodel"))
        #expect(model.entity(named: "E")?.attribute("id")?.defaultValue == nil)
        #expect(model.warnings.map(\.message) == ["\(url.path):4: 'E.id': default '0' is not a UUID; dropped, as Core Data uses no default then"])
    }
}

/// A fetch index naming a relationship (issue 16, real-world item 5) loads with a warning
/// instead of refusing the whole model.
struct XcodeRelationshipFetchIndexTests {
    @Test func theRelationshipIsLeftOutOfTheIndexWithAWarning() throws {
        let body = """
            <entity name="Ticker" syncable="YES">
                <attribute name="symbol" optional="YES" attributeType="String"/>
                <relationship name="sector" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Sector" inverseName="tickers" inverseEntity="Sector"/>
                <fetchIndex name="bySectorAndSymbol">
                    <fetchIndexElement property="sector" type="Binary" order="ascending"/>
                    <fetchIndexElement property="symbol" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="bySector">
                    <fetchIndexElement property="sector" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="Sector" syncable="YES">
                <relationship name="tickers" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Ticker" inverseName="sector" inverseEntity="Ticker"/>
            </entity>
            """
        let (definition, warnings) = try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "M.xcdatamodel/contents")
        let model = try ManagedObjectModel(definition, warnings: warnings)
        let ticker = try #require(model.entity(named: "Ticker"))
        #expect(ticker.indexes.map(\.attributes) == [["symbol"]])
        let notes = model.warnings.filter { $0.name == ModelWarning.xcodeFetchIndex }.map(\.message)
        #expect(notes.count == 2)
        #expect(notes.allSatisfy { $0.contains("element 'sector' is a relationship") })
    }
}
