import Foundation
import QuarryTestSupport
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

    /// The fuzzer's input whose NSKnownKeysDictionary1 named itself as its `emptyToken`: the
    /// token was decoded with a fresh depth budget, recursing until the stack overflowed.
    @Test func anEmptyTokenPointingBackAtItsDictionaryDoesNotRecurse() throws {
        let input = Data(base64Encoded: "YnBsaXN0MDDUAQIDBAUGpqlZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKvECkHCA8ZHzA4P0BBREVNTlRETT9YZGVqa2RqQHF7fn+Afn+DiIySl5ucpFUkbnVsbNMJCgsMDQ5WJGNsYXNzWk5TRW50aXRpZXNfEBdOU0ZldGNoUmVxdWVzdFRlbXBsYXRlc4AogCeAANUJEBESExQVFhcYXE5TRW50aXR5TmFtZV8QFE5TTWFuYWdlZE9iamVjdE1vZGVsXE5TUHJvcGVydGllc11OU1N1cGVyZW50aXR5gBuAHIABgBKAANUJEBESExobHB0egBuAHYABgBqAANkJICEiIyQlJicoKSorLC0uLi9cTlNEZWxldGVSdWxlXxATTlNEZXN0aW5hdGlvbkVudGl0eVhOU0VudGl0eV8QFU5TSW52ZXJzZVJlbGF0aW9uc2hpcFxOU0lzT3B0aW9uYWxaTlNNYXhDb3VudFpOU01pbkNvdW50Xk5TUHJvcGVydHlOYW1lgAYQAYADgAKABQkQAIAH2gkgISIjJDElJicyMzQ1Ni0tLi43W05TSXNPcmRlcmVkgAYQAoACgAOABIAI0jk6OzxYJGNsYXNzZXNaJGNsYXNzbmFtZaM8PT5fEBlOU1JlbGF0aW9uc2hpcERlc2NyaXB0aW9uXxAVTlNQcm9wZXJ0eURlc2NyaXB0aW9uWE5TT2JqZWN0VWJvb2tzV2F1dGhvcnPSOTpCQ6NDPT5fEBZOU0F0dHJpYnV0ZURlc2NyaXB0aW9uVG5hbWXWCUZHIiQnSElKSy1MXxAPTlNBdHRyaWJ1dGVUeXBlXk5TRGVmYXVsdFZhbHVlgAkRAryAAIACgApUYm9ybtYJRkciJCdPUFFSLVOACREDhIAAgAKADNI5OlVWo1ZXPl8QE05TTXV0YWJsZURpY3Rpb25hcnlcTlNEaWN0aW9uYXJ50wlZWltcYFdOUy5rZXlzWk5TLm9iamVjdHOADqNdXl+AD4AQgBGjYWJjgAuADYAEVXRpdGxl1glGRyIkJ2ZJZ2gtaYAJgACAA4ATVXBhZ2Vz1glGRyIkJ2xtbm8tcIAJEMiAAIADgBXTCVlacnN3gA6jdHV2gBeAGIAZo3h5eoAUgBaABdI5Onx9on0+XxATTlNFbnRpdHlEZXNjcmlwdGlvblZBdXRob3JUQm9va9I5OoGCooI+V05TQXJyYXnSCVqEhYAeooaHgB+AINI5OomKo4qLPl8QG05TS25vd25LZXlzTWFwcGluZ1N0cmF0ZWd5MV8QGk5TS25vd25LZXlzTWFwcGluZ1N0cmF0ZWd51AmNjo+QkTMpVGtleXNWbGVuZ3RoV3ZlcnNpb26AIoAh0glak5SAHqKVloACgAPSOTqYmaWZmlZXPl8QFk5TS25vd25LZXlzRGljdGlvbmFyeTFfEBVOU0tub3duS2V5c0RpY3Rpb25hcnlZX19lbXB0eV9f1Qmdnp+PoKGioylaZW1wdHlUb2tlbl1zZWFyY2hNYXBwaW5nVnZhbHVlc4AlgCeAI4Ak0jk6pRGiET7Rp6hUcm9vdIABEgABhqAACAARABsAJAApADIARABwAHYAfQCEAI8AqQCrAK0ArwC6AMcA3gDrAPkA+wD9AP8BAQEDAQ4BEAESARQBFgEYASsBOAFOAVcBbwF8AYcBkgGhAaMBpQGnAakBqwGsAa4BsAHFAdEB0wHVAdcB2QHbAd0B4gHrAfYB+gIWAi4CNwI9AkUCSgJOAmcCbAJ5AosCmgKcApsCoQKjAqUCqgK3ArkCvAK+AsACwgLHAssC4QLuAvUC/QMIAwoDDgMQAxIDFAMYAxoDHAMeAyQDMQMzAzUDNwM5Az8DTANOA1ADUgNUA1YDXQNfA2MDZQNnA2kDbQNvA3EDcwN4A3sDkQOYA50DogOlA60DsgO0A7cDuQO7A8ADxAPiA/8ECAQNBBQEHAQeBCAEJQQnBCoELAQuBDMEOQRSBGoEdAR/BIoEmASfBKEEowSlBKcErASvBLIEtwS5AAAAAAAAAgEAAAAAAAAAqgAAAAAAAAAAAAAAAAAABL4=")!
        // The token is looked up, not decoded: the rest of the archive still reads.
        #expect(try CoreDataModelCache.model(fromArchive: input).entities.map(\.name) == ["Author", "Book"])
    }

    @Test func aKnownKeysDictionarySkipsItsEmptySlots() throws {
        var a = KeyedArchiveFixture()
        let token = a.add("__empty__")
        let keys = a.array([a.add("A"), a.add("B")])
        let mapping = a.object("NSKnownKeysMappingStrategy1", ["NSObject"], ["keys": KeyedArchiveFixture.uid(keys)])
        let values = a.array([a.add("a"), token])
        let root = a.object("NSKnownKeysDictionary1", ["NSDictionary", "NSObject"], [
            "searchMapping": KeyedArchiveFixture.uid(mapping), "values": KeyedArchiveFixture.uid(values),
            "emptyToken": KeyedArchiveFixture.uid(token),
        ])
        let archive = try KeyedArchive(propertyList: a.archive(root: root))
        #expect(try archive.decode(uid: archive.topUID("root"), at: "$top.root") == .dictionary([
            KeyedArchivePair(key: .string("A"), value: .string("a")),
        ]))
    }

    /// Twenty arrays, each holding the next one twice: 2^20 values if every reach were decoded.
    @Test func sharedElementsRepeatedExponentiallyAreRefusedQuickly() throws {
        var a = KeyedArchiveFixture()
        var inner = a.array([a.add("x")])
        for _ in 0..<20 { inner = a.array([inner, inner]) }
        let archive = try KeyedArchive(propertyList: a.archive(root: inner))
        do {
            _ = try archive.decode(uid: archive.topUID("root"), at: "$top.root")
            Issue.record("decoded 2^20 values")
        } catch {
            guard case .tooManyValues(let limit, _) = error else { Issue.record("got \(error)"); return }
            #expect(limit == KeyedArchive.maximumValues)
        }
    }
}
