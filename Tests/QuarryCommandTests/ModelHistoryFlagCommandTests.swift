import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry model` names the attributes persistent history keeps on deletion.
struct ModelHistoryFlagCommandTests {
    let directory = TemporaryDirectory()

    @Test func modelDescriptionFlagsAttributesKeptInHistoryOnDeletion() throws {
        var b = ModelBuilder()
        b.entity("Item") { e in
            e.attribute("code", .string, preservesValueInHistoryOnDeletion: true)
            e.attribute("count", .integer32)
        }
        let model = try QuarryExecutable.write(b.definition.jsonText(), to: directory.file("Item.json"))
        let result = try QuarryExecutable.run(["model", model.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.contains("code") && $0.hasSuffix("kept in history on deletion") })
        #expect(!lines.contains { $0.contains("count") && $0.contains("kept in history") })
    }
}
