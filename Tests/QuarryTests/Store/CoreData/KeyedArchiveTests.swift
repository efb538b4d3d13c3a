import Foundation
import Testing
@testable import Quarry

@Suite struct KeyedArchiveTests {
    @Test func decodesArraysDictionariesStringsAndNumbers() throws {
        var a = KeyedArchiveFixture()
        let name = a.add("name")
        let text = a.add("hello")
        let mutable = a.object("NSMutableString", ["NSString", "NSObject"], ["NS.string": "mutable"])
        let list = a.array([text, mutable, a.add(42), a.add(2.5), a.add(true)], className: "NSMutableArray")
        let set = a.object("NSSet", ["NSObject"], ["NS.objects": [KeyedArchiveFixture.uid(text)]])
        let root = a.dictionary([(name, list), (a.add("set"), set), (a.add("nothing"), 0)])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        let value = try archive.decode(uid: archive.topUID("root"), at: "$top.root")
        #expect(value == .dictionary([
            KeyedArchivePair(key: .string("name"), value: .array([.string("hello"), .string("mutable"), .integer(42), .double(2.5), .bool(true)])),
            KeyedArchivePair(key: .string("set"), value: .array([.string("hello")])),
            KeyedArchivePair(key: .string("nothing"), value: .null),
        ]))
    }

    @Test func decodesDataAndDates() throws {
        var a = KeyedArchiveFixture()
        let data = a.object("NSMutableData", ["NSData", "NSObject"], ["NS.data": Data([1, 2, 3])])
        let date = a.object("NSDate", ["NSObject"], ["NS.time": 86_400.0])
        let root = a.array([data, date, a.add(Data([9]))])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(try archive.decode(uid: archive.topUID("root"), at: "$top.root") == .array([
            .data(Data([1, 2, 3])), .date(Date(timeIntervalSinceReferenceDate: 86_400)), .data(Data([9])),
        ]))
    }

    @Test func objectsOfOtherClassesAreReferencesNotDecodedInFull() throws {
        var a = KeyedArchiveFixture()
        let thing = a.object("MyThing", ["NSObject"], ["field": 1])
        let root = a.array([thing])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(try archive.decode(uid: archive.topUID("root"), at: "$top.root") == .array([.object(uid: thing, className: "MyThing")]))
        #expect(try archive.object(thing, at: "t").integer("field") == 1)
    }

    @Test func anArrayContainingItselfIsACycle() throws {
        var a = KeyedArchiveFixture()
        let root = a.array([])
        a.objects[root] = ["NS.objects": [KeyedArchiveFixture.uid(root)], "$class": KeyedArchiveFixture.uid(a.classUID("NSArray"))] as [String: Any]
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(throws: CoreDataModelCacheError.cycle(uid: root, at: "$top.root.NS.objects[0]")) {
            try archive.decode(uid: archive.topUID("root"), at: "$top.root")
        }
    }

    @Test func aSharedElementIsNotACycle() throws {
        var a = KeyedArchiveFixture()
        let inner = a.array([a.add("x")])
        let root = a.array([inner, inner])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(try archive.decode(uid: archive.topUID("root"), at: "$top.root") == .array([.array([.string("x")]), .array([.string("x")])]))
    }

    @Test func aUIDPastTheObjectsIsOutOfRange() throws {
        var a = KeyedArchiveFixture()
        let root = a.array([])
        a.objects[root] = ["NS.objects": [KeyedArchiveFixture.uid(999)], "$class": KeyedArchiveFixture.uid(a.classUID("NSArray"))] as [String: Any]
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(throws: CoreDataModelCacheError.uidOutOfRange(uid: 999, objectCount: a.objects.count, at: "$top.root.NS.objects[0]")) {
            try archive.decode(uid: archive.topUID("root"), at: "$top.root")
        }
    }

    @Test func aTopUIDPastTheObjectsIsOutOfRange() throws {
        let data = try KeyedArchiveFixture.binary(["$archiver": "NSKeyedArchiver", "$top": ["root": KeyedArchiveFixture.uid(5)], "$objects": ["$null"]])
        let archive = try KeyedArchive(propertyList: data)
        #expect(throws: CoreDataModelCacheError.uidOutOfRange(uid: 5, objectCount: 1, at: "$top.root")) { try archive.topUID("root") }
    }

    @Test func aValueOfTheWrongKindNamesWhatWasExpectedAndWhere() throws {
        var a = KeyedArchiveFixture()
        let root = a.object("NSArray", ["NSObject"], ["NS.objects": "not a list"])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(throws: CoreDataModelCacheError.wrongType(expected: "an array", found: "a string", at: "$top.root.NS.objects")) {
            try archive.decode(uid: archive.topUID("root"), at: "$top.root")
        }
    }

    @Test func anObjectWithoutAClassIsAMissingKey() throws {
        var a = KeyedArchiveFixture()
        let root = a.add(["NS.objects": [Any]()] as [String: Any])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(throws: CoreDataModelCacheError.missingKey("$class", at: "$top.root")) {
            try archive.decode(uid: archive.topUID("root"), at: "$top.root")
        }
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        var a = KeyedArchiveFixture()
        var inner = a.array([])
        for _ in 0...KeyedArchive.maximumDepth { inner = a.array([inner]) }
        let archive = try KeyedArchive(propertyList: a.archive(root: inner))
        do {
            _ = try archive.decode(uid: archive.topUID("root"), at: "$top.root")
            Issue.record("decoded past the depth limit")
        } catch {
            guard case .tooDeep(let limit, _) = error else { Issue.record("got \(error)"); return }
            #expect(limit == KeyedArchive.maximumDepth)
        }
    }

    @Test func aPropertyListWithoutArchiverKeysIsNotAKeyedArchive() throws {
        let data = try KeyedArchiveFixture.binary(["$top": ["root": 1], "$objects": ["$null"]])
        #expect(throws: CoreDataModelCacheError.notAKeyedArchive(missing: "$archiver")) { try KeyedArchive(propertyList: data) }
        let noObjects = try KeyedArchiveFixture.binary(["$archiver": "NSKeyedArchiver", "$top": [String: Any]()])
        #expect(throws: CoreDataModelCacheError.notAKeyedArchive(missing: "$objects")) { try KeyedArchive(propertyList: noObjects) }
    }

    @Test func bytesThatAreNoPropertyListAreReported() {
        do {
            _ = try KeyedArchive(propertyList: Data("bplist00 this is not one".utf8))
            Issue.record("garbage parsed")
        } catch {
            guard case .notAPropertyList = error else { Issue.record("got \(error)"); return }
        }
    }

    @Test func aRootThatIsNotADictionaryIsAWrongType() throws {
        let data = try KeyedArchiveFixture.binary(["an", "array"])
        #expect(throws: CoreDataModelCacheError.wrongType(expected: "a dictionary", found: "an array", at: "property list root")) {
            try KeyedArchive(propertyList: data)
        }
    }
}
