import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A model saved before Xcode 4 (issue 34, item 10): a binary `elements` archive and a
/// `layout`, no `contents`. The error says what the folder holds and that the format is not
/// read, for the folder, inside a versioned bundle, and in a bundle's version history.
@Suite struct XcodeLegacyModelTests {
    /// Writes a pre-Xcode 4 `.xcdatamodel` folder at `relativePath` in `dir`.
    private func writeLegacyModel(_ relativePath: String, in dir: TemporaryDirectory) throws -> URL {
        let folder = dir.file(relativePath)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Any binary property list will do: its bytes are never read.
        try PropertyListSerialization.data(fromPropertyList: ["$archiver": "NSKeyedArchiver"], format: .binary, options: 0)
            .write(to: folder.appendingPathComponent("elements"))
        try Data([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74]).write(to: folder.appendingPathComponent("layout"))
        return folder
    }

    @Test func aFolderWithOnlyElementsIsNamedAsThePreXcode4Format() throws {
        let dir = TemporaryDirectory()
        let folder = try writeLegacyModel("Old.xcdatamodel", in: dir)
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel.load(xcodeModelAt: folder) }
        let message = try #require(error?.description)
        #expect(message.hasPrefix(folder.path + ": "))
        #expect(message.contains("pre-Xcode 4 format"))
        #expect(message.contains("'elements', 'layout'"))
        #expect(message.contains("no 'contents' file"))
        #expect(message.contains("this format is not read"))
        #expect(error != .fileNotFound(path: folder.appendingPathComponent("contents").path))
    }

    @Test func theCurrentVersionOfABundleInTheOldFormatIsNamedToo() throws {
        let dir = TemporaryDirectory()
        let folder = try writeLegacyModel("M.xcdatamodeld/M.xcdatamodel", in: dir)
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel.load(xcodeModelAt: dir.file("M.xcdatamodeld")) }
        #expect(error?.description.hasPrefix(folder.path + ": ") == true)
        #expect(error?.description.contains("pre-Xcode 4 format") == true)
    }

    @Test func aFolderWithNeitherFileIsStillFileNotFound() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.file("Empty.xcdatamodel"), withIntermediateDirectories: true)
        #expect(throws: ModelError.fileNotFound(path: dir.file("Empty.xcdatamodel/contents").path)) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("Empty.xcdatamodel"))
        }
    }
}
