import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Transformable values of Core Data stores: keyed archives and property lists read as JSON;
/// anything else reads as a readable placeholder, never a failure.
@Suite struct CoreDataArchiveTransformerTests {
    let dir = TemporaryDirectory()

    @Test func aKeyedArchiveOfFoundationValuesReadsAsJSON() throws {
        let root: NSDictionary = [
            "name": "Ann", "count": 3, "when": Date(timeIntervalSinceReferenceDate: 0),
            "bytes": Data([1, 2, 3]), "list": ["a", "b"],
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let value = try CoreDataArchiveTransformer().value(from: data)
        #expect(value == .object([
            "name": .string("Ann"), "count": .number(3), "when": .string("2001-01-01T00:00:00Z"),
            "bytes": .string(Data([1, 2, 3]).base64EncodedString()), "list": .array([.string("a"), .string("b")]),
        ]))
    }

    @Test func anArchivedObjectOfACustomClassReadsAsItsFieldsWithItsClass() throws {
        let archive: [String: Any] = [
            "$archiver": "NSKeyedArchiver", "$version": 100000,
            "$top": ["root": ["CF$UID": 1]],
            "$objects": ["$null", ["$class": ["CF$UID": 3], "title": ["CF$UID": 2], "rank": 7] as [String: Any], "Report",
                         ["$classname": "MyApp.Summary", "$classes": ["MyApp.Summary", "NSObject"]] as [String: Any]],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: archive, format: .xml, options: 0)
        let value = try CoreDataArchiveTransformer().value(from: data)
        #expect(value == .object(["$class": .string("MyApp.Summary"), "title": .string("Report"), "rank": .number(7)]))
    }

    @Test func aPlainPropertyListReadsAsJSON() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": 1, "b": [true]] as [String: Any], format: .binary, options: 0)
        #expect(try CoreDataArchiveTransformer().value(from: data) == .object(["a": .number(1), "b": .array([.bool(true)])]))
    }

    @Test(arguments: [Data(), Data([0xFF, 0x00, 0x13]), Data("bplist00".utf8) + Data(repeating: 0xCC, count: 40)])
    func bytesThatAreNeitherReadAsAPlaceholderWithTheirSize(data: Data) throws {
        let value = try CoreDataArchiveTransformer().value(from: data)
        #expect(value == .object(["$undecoded": .string("\(data.count) bytes"), "base64": .string(data.base64EncodedString())]))
    }

    @Test func theReaderGivesRecoveredTransformablesThisTransformer() throws {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("T.sqlite")
        try CoreDataStoreLayoutFixture.write(url, history: false)
        let model = try ManagedObjectModel(ModelDefinition(entities: [
            EntityDefinition(name: "Tag", attributes: [AttributeDescription(name: "label", type: .string),
                                                        AttributeDescription(name: "extra", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData")]),
        ]))
        let d = try CoreDataStoreFixture.read(url, candidates: [ModelVersionHistory.Version(name: "T", model: model)])
        #expect(d.model.entity(named: "Tag")?.attribute("extra")?.valueTransformerName == CoreDataArchiveTransformer.name)
    }
}

extension CoreDataArchiveTransformerTests {
    /// Every single-byte corruption of a small binary keyed archive (three replacement values at
    /// every offset) reads as some JSON value: never a crash, never an error.
    @Test func everySingleByteCorruptionOfAKeyedArchiveStillReads() throws {
        let root: NSDictionary = ["name": "Ann", "when": Date(timeIntervalSinceReferenceDate: 1), "list": [1, 2]]
        let original = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let transformer = CoreDataArchiveTransformer()
        var read = 0
        for offset in original.indices {
            for replacement: UInt8 in [0x00, 0xFF, original[offset] ^ 0x01] {
                var damaged = original
                damaged[offset] = replacement
                _ = try transformer.value(from: damaged)
                read += 1
            }
        }
        #expect(read == original.count * 3)
    }
}
