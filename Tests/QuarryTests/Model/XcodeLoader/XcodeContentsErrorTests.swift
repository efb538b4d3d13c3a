import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// What a bad Xcode model file says: the file, the line and the entity or attribute at fault.
@Suite struct XcodeContentsErrorTests {
    private func parse(_ body: String) throws -> (definition: ModelDefinition, warnings: [ModelWarning]) {
        try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "M.xcdatamodel/contents")
    }

    @Test func malformedXMLNamesPathLineAndColumn() throws {
        let dir = TemporaryDirectory()
        let contents = try XcodeFixtures.write(XcodeFixtures.document("""
            <entity name="A" syncable="YES">
                <attribute name="x" attributeType="String"/>
            </entty>
            """), to: "Bad.xcdatamodel/contents", in: dir)
        let error = #expect(throws: ModelError.self) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("Bad.xcdatamodel"))
        }
        guard case .malformedFile(let path, let line, let column, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(path == contents.path)
        #expect(line == 5)
        #expect(column > 0)
        #expect(reason.contains("closing tag"))
        #expect(error!.description.hasPrefix("\(contents.path):5:"))
    }

    @Test func truncatedFileIsMalformed() throws {
        let error = #expect(throws: ModelError.self) {
            try ModelDefinition.xcodeContents(Data("<model><entity name=\"A\">".utf8), path: "cut")
        }
        guard case .malformedFile("cut", let line, _, _)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(line == 1)
    }

    @Test func otherXMLIsNotAModel() throws {
        let error = #expect(throws: ModelError.self) {
            try ModelDefinition.xcodeContents(Data("<?xml version=\"1.0\"?>\n<plist/>".utf8), path: "p")
        }
        guard case .malformedFile("p", 2, _, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(reason.contains("<plist>"))
    }

    @Test func emptyFileIsMalformed() {
        #expect(throws: ModelError.self) { try ModelDefinition.xcodeContents(Data(), path: "empty") }
    }

    @Test func relationshipWithoutDestinationNamesFileEntityAndRelationship() {
        let error = #expect(throws: ModelError.self) {
            try parse("""
                <entity name="A" syncable="YES">
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify"/>
                </entity>
                """)
        }
        guard case .malformedFile("M.xcdatamodel/contents", let line, 0, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(line > 0)
        #expect(reason == ModelError.missingDestination(entity: "A", relationship: "b").description)
    }

    @Test func theResolversFaultsNameTheFileAndTheElementsLine() throws {
        let dir = TemporaryDirectory()
        let contents = try XcodeFixtures.write(XcodeFixtures.document("""
            <entity name="A" syncable="YES">
                <attribute name="x" optional="YES" attributeType="String"/>
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/>
            </entity>
            """), to: "Dest.xcdatamodel/contents", in: dir)
        let lines = try String(contentsOf: contents, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("<relationship name=\"b\"") }) + 1
        let expected = ModelError.malformedFile(
            path: contents.path, line: line, column: 0,
            reason: ModelError.unknownDestination(entity: "A", relationship: "b", destination: "Nowhere").description)
        #expect(throws: expected) { try ManagedObjectModel.load(xcodeModelAt: dir.file("Dest.xcdatamodel")) }
    }

    @Test func unknownAttributeTypeNamesEntityAttributeAndLine() {
        #expect(throws: ModelError.unsupported(path: "M.xcdatamodel/contents", line: 5,
                                               feature: "attribute type 'Integer 128' of 'A.big'")) {
            try parse("""
                <entity name="A" syncable="YES">
                    <attribute name="ok" optional="YES" attributeType="String"/>
                    <attribute name="big" optional="YES" attributeType="Integer 128"/>
                </entity>
                """)
        }
    }

    // "Undefined" is supported on transient attributes (XcodeUndefinedAttributeTests);
    // "Composite" with its `composite=` type (ModelConstructLoadingTests).
    @Test(arguments: ["ObjectID"])
    func attributeTypesQuarryLacksAreUnsupported(type: String) {
        #expect(throws: ModelError.unsupported(path: "M.xcdatamodel/contents", line: 4,
                                               feature: "attribute type '\(type)' of 'A.x'")) {
            try parse("""
                <entity name="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="\(type)"/>
                </entity>
                """)
        }
    }

    @Test func unknownDeletionRuleIsUnsupported() {
        #expect(throws: ModelError.unsupported(path: "M.xcdatamodel/contents", line: 4,
                                               feature: "deletion rule 'Explode' of 'A.b'")) {
            try parse("""
                <entity name="A" syncable="YES">
                    <relationship name="b" deletionRule="Explode" destinationEntity="A"/>
                </entity>
                """)
        }
    }

    @Test func attributeWithoutNameIsMalformed() {
        #expect(throws: ModelError.malformedFile(path: "M.xcdatamodel/contents", line: 4, column: 0,
                                                 reason: "<attribute> in entity 'A' has no name")) {
            try parse("""
                <entity name="A" syncable="YES">
                    <attribute attributeType="String"/>
                </entity>
                """)
        }
    }

    @Test func nonNumericBoundIsMalformed() {
        #expect(throws: ModelError.malformedFile(path: "M.xcdatamodel/contents", line: 4, column: 0,
                                                 reason: "minValueString 'low' of 'A.n' is not a number")) {
            try parse("""
                <entity name="A" syncable="YES">
                    <attribute name="n" attributeType="Double" minValueString="low"/>
                </entity>
                """)
        }
    }

    /// Core Data loads such a model and uses no default (issue 34, item 8): so does Quarry,
    /// with a warning (see `XcodeDefaultValueTests`).
    @Test func defaultThatDoesNotFitIsDroppedWithAWarningOnLoad() throws {
        let (definition, warnings) = try parse("""
            <entity name="A" syncable="YES">
                <attribute name="n" optional="YES" attributeType="Integer 16" defaultValueString="70000"/>
            </entity>
            """)
        let model = try ManagedObjectModel(definition, warnings: warnings)
        #expect(model.entity(named: "A")?.attribute("n")?.defaultValue == nil)
        #expect(model.warnings.map(\.name) == [ModelWarning.xcodeDefaultValue])
    }

    @Test func unknownDestinationIsReportedByTheResolver() throws {
        let (definition, _) = try parse("""
            <entity name="A" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/>
            </entity>
            """)
        #expect(throws: ModelError.unknownDestination(entity: "A", relationship: "b", destination: "Nowhere")) {
            try ManagedObjectModel(definition)
        }
    }
}
