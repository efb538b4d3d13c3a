import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 34, item 9: a bundle version between the store's and the target that does not load no
/// longer refuses the migration when a path around it exists; the plan says which version was
/// skipped, with its file, and a version that is refused is named with its file.
@Suite struct VersionedBundleSkippedVersionTests {
    let fixture = MigrationFixture()

    /// `Notes` (title), `Notes 2` broken as `contents` says, `Notes 3` (title, stars): a store of
    /// `Notes` migrates straight to `Notes 3` by adding `stars`.
    private func bundle(brokenMiddle contents: String = "<model><entity name=\"Note\"><relationship name=\"x\" destinationEntity=\"Gone\"/></entity></model>",
                        current: String = "Notes 3") throws -> URL {
        let url = fixture.dir.file("Notes.xcdatamodeld")
        for (name, attributes) in [("Notes", ["title"]), ("Notes 3", ["title", "stars"])] {
            var builder = ModelBuilder()
            builder.entity("Note") { entity in
                for attribute in attributes { entity.attribute(attribute, attribute == "stars" ? .integer16 : .string) }
            }
            let folder = url.appendingPathComponent(name + ".xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try builder.definition.xcodeContentsXML().write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        let broken = url.appendingPathComponent("Notes 2.xcdatamodel")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try contents.write(to: broken.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": current + ".xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: url.appendingPathComponent(".xccurrentversion"))
        return url
    }

    @Test func aVersionThatDoesNotLoadIsSkippedAndNamedWithItsFile() throws {
        let url = try bundle()
        let history = try ModelVersionHistory.load(xcodeBundleAt: url)
        #expect(history.versions.map(\.name) == ["Notes", "Notes 3"])
        #expect(history.versions[history.currentIndex].name == "Notes 3")
        let skipped = try #require(history.skipped.first)
        #expect(history.skipped.count == 1)
        #expect(skipped.name == "Notes 2")
        #expect(skipped.path == url.appendingPathComponent("Notes 2.xcdatamodel").path)
        #expect(skipped.reason.contains("Gone"))
        #expect(skipped.description.hasPrefix(skipped.path + ": version 'Notes 2' does not load"))
    }

    @Test func aStoreOfAnOlderVersionMigratesAroundItAndThePlanSaysSo() throws {
        let history = try ModelVersionHistory.load(xcodeBundleAt: try bundle())
        try fixture.create(history.versions[0].model) { context in try context.make("Note", ["title": .string("kept")]) }
        let plan = try #require(try SQLiteStore.migrate(url: fixture.url, to: history.current, versions: history))
        #expect(plan.steps.map(\.sourceVersion) == ["Notes"])
        #expect(plan.steps.map(\.destinationVersion) == ["Notes 3"])
        let note = try #require(plan.notes.first)
        #expect(note.contains("version 'Notes 2' (\(history.skipped[0].path)) does not load"))
        #expect(note.contains("from 'Notes' to 'Notes 3' goes around it"))
        #expect(plan.description.contains("note: version 'Notes 2'"))
        #expect(try fixture.rows(history.current, "Note", ["title"]) == [["title": "kept"]])
    }

    /// A pre-Xcode 4 version in the middle (item 10's format) is skipped the same way.
    @Test func aPreXcode4VersionInTheMiddleIsSkipped() throws {
        let url = try bundle()
        let broken = url.appendingPathComponent("Notes 2.xcdatamodel")
        try FileManager.default.removeItem(at: broken.appendingPathComponent("contents"))
        try Data("bplist00".utf8).write(to: broken.appendingPathComponent("elements"))
        let history = try ModelVersionHistory.load(xcodeBundleAt: url)
        #expect(history.skipped.map(\.name) == ["Notes 2"])
        #expect(history.skipped.first?.reason.contains("pre-Xcode 4 format") == true)
    }

    @Test func theCurrentVersionRefusedIsNamedWithItsFileAndVersion() throws {
        let url = try bundle(current: "Notes 2")
        let error = #expect(throws: ModelError.self) { try ModelVersionHistory.load(xcodeBundleAt: url) }
        let message = try #require(error?.description)
        #expect(message.hasPrefix(url.appendingPathComponent("Notes 2.xcdatamodel").path + ": version 'Notes 2'"))
        #expect(message.contains("Gone"))
    }
}
