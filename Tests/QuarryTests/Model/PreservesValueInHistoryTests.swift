import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `preservesValueInHistoryOnDeletion` (tombstone attributes) survives every model format and
/// changes the version hash only when set.
@Suite("Model: attributes kept in history on deletion")
struct PreservesValueInHistoryTests {
    private func definition(preserving: Bool) -> ModelDefinition {
        var b = ModelBuilder()
        b.entity("Item") { e in
            e.attribute("code", .string, preservesValueInHistoryOnDeletion: preserving)
            e.attribute("count", .integer32)
        }
        return b.definition
    }

    @Test("the JSON model reads and writes \"preservesValueInHistoryOnDeletion\"")
    func jsonRoundTrip() throws {
        let text = definition(preserving: true).jsonText()
        #expect(text.contains("\"preservesValueInHistoryOnDeletion\": true"))
        let read = try ModelDefinition(jsonText: text, path: "item.json")
        #expect(read.entities[0].attributes.map(\.preservesValueInHistoryOnDeletion) == [true, false])
        #expect(!definition(preserving: false).jsonText().contains("preservesValueInHistoryOnDeletion"))
    }

    @Test("the Xcode loader reads preserveAfterDeletion=\"YES\" and the writer writes it")
    func xcodeRoundTrip() throws {
        let xml = definition(preserving: true).xcodeContentsXML()
        #expect(xml.contains("preserveAfterDeletion=\"YES\""))
        let read = try ModelDefinition(xcodeContents: Data(xml.utf8), path: "Item.xcdatamodel/contents")
        let attributes = read.entities[0].attributes.sorted { $0.name < $1.name }
        #expect(attributes.map(\.preservesValueInHistoryOnDeletion) == [true, false])
        #expect(!definition(preserving: false).xcodeContentsXML().contains("preserveAfterDeletion"))
    }

    @Test("the version hash changes only when an attribute is marked")
    func versionHash() throws {
        let plain = try ManagedObjectModel(definition(preserving: false))
        let marked = try ManagedObjectModel(definition(preserving: true))
        #expect(plain.versionHash != marked.versionHash)
        #expect(!ModelResolver.schemaText(name: "Item", parent: nil, isAbstract: false,
                                          attributes: plain.entity(named: "Item")!.attributes, relationships: [], indexes: [],
                                          constraints: []).contains("preserves"))
    }
}
