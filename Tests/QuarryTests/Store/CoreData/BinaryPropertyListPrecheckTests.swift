import Foundation
import QuarryTestSupport
import Testing
@testable import Quarry

@Suite struct BinaryPropertyListPrecheckTests {
    /// The fuzzer's input that crashed swift-corelibs-foundation while it bridged a binary
    /// plist set (object 0xC6 in a mangled keyed archive) to Swift.
    static let fuzzCrash = Data(base64Encoded: "YnBsaXN0MDDUAQIDBAUGpqlZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKvECkHCA8ZHzA4P0BBREVNTlRETT9YZGVqa2RqQHF7fn+Afn+DiIySl5ucpFUkbnVsbNMJCgsMDQ5WJGNsYXNzWk5TRW50aXRpZXNfEBdOU0ZldGNoUmVxdWVzdFRlbXBsYXRlc4AogCeAANUJEBESExQVFhcYXE5TRW50aXR5TmFtZV8QFE5TTWFuYWdlZE9iamVjdE1vZGVsXE5TUHJvcGVydGllc11OU1N1cGVyZW4AAHR5gBuAHIABgBKAANUJEBESExobHB0egBuAHYABgBqAANkJICEiIyQlJicoKSorLC0uLi9cTlNEZWxldGVSdWxlXxATTlNEZXN0aW5hdGlvbkVudGl0eVhOU0VudGl0eV8QFU5TSW52ZXJzZVJlbGF0aW9uc2hpcFxOU0lzT3B0aW9uYWxaTlNNYXhDb3VudFpOU00BAAAAAAEAAE5TUHJvcGVydHlOYW1lgAYQAYADgAKABQkQAIAH2gkgISIjJDElJicyMzQ1Ni0tLi43W05TSXNPcmRlcmVkgAYQAoACgAOABIAI0jk6OzxYJGNsYXNzZXNaJGNsYXNzbmFtZaM8PT5fEBlOU1JlbGF0aW9uc2hpcERlc2NyaXB0aW9uXxAVTlNQcm9wZXJ0eURlc2NyaXB0aW9uWE5TT2JqZWN0VWJvb2tzV2F1dGhvcnPSOTpCQ6NDPT5fEBZOU0F0dHJpYnV0ZURlc2NyaXB0aW9uVG5hbWXWCUZHIiQnSElKSy1MXxAPTlNBdHRyaWJ1dGVUeXBlXk5TRGVmYXVsdFZhbHVlgAkRAryAAIACgApUYm9ybtYJRkciJCdPUFFSLVOACREDhIAAgAKADNI5OlVWo1ZXPl8QE05TTXV0YWJsZURpY3Rpb25hcnlcTlNEaWN0aW9uYXJ50wlZWltcYFdOUy5rZXlzWk5TLm9iamVjdHOADqNdXl+AD4AQgBGjYWJjgAuADYAEVXRpdGxl1glGRyIkJ2ZJZ2gtaYAJgACAA4ATVXBhZ2VzxglGRyIkJ2xtbm8tcIAJEMiAAIADgBXTCVlacnN3gA6jdHV2gBeAGIAZo3h5eoAUgBaABdI5Onx9on0+XxATTlNFbnRpdHlEZXNjcmlwdGlvQVZ1bnRob3JUQm9va9I5OoGCooI+V05TQXJyYXnSCVqEhYAeooaHgB+AINI5OomKo4qLPl8QG05TS25vd25LZXlzTWFwcGluZ1N0cmF0ZWd5MV8QGk5TS25vd25LZXlzTWFwcGluZ1N0cmF0ZWd51AmNjo+QkTMpVGtleXNWbGVuZ3RoV3ZlcnNpb26AIoAh0glak5SAHqKVloACgAPSOTqYmaWZmlZXPl8QFk5TS25vd25LZXlzRGljdGlvbmFyeTFfEBVOU0tub3duS2V5c0RpY3Rpb25hcnlZX19lbXB0eV9f1Qmdnp+PoKGioylaZW1wdHlUb2tlbl1zZWFyY2hNYXBwaW5nVnZhbHVlc4AlgCaAI4Ak0jk6pRGiET7Rp6hUcm9vdIABEgABhqAACAARABsAJAApADIARABwAHYAfQCEAI8AqQCrAK0ArwC6AMcA3gDrAPkA+wD9AP8BAQEDAQ4BEAESARQBFgEYASsBOAFOAVcBbwF8AYcBkgGhAaMBpQGnAakBqwGsAa4BsAHFAdEB0wHVAdcB2QHbAd0B4gHrAfYB+gIWAi4CNAI9AkUCSgJOAmcCbAJ5AosCmgKcAp8CoQKjAqUCqgK3ArkCvAK+AsACwgLHAssC4QLuAvUC/QMIAwoDDgMQAxIDFAMYAxoDHAMeAyQDMQMzAzUDNwM5Az8DTANOA1ADUgNUA1YDXQNfA2MDZQNnA2kDbQNvA3EDcwN4A3sDkQOYA50DogOlA60DsgO0A7cDuQO7A8ADxAPiA/8ECAQNBBQEHAQeBCAEJQQnBCoELAQuBDMEOQRSBGoEdAR/BIoEmASfBKEEowSlBKcErASvBLIEtwS5AAAAAAAAAgEAAAAAAAAAqgAAAAAAAAAAAAAAAAAABL4=")!

    /// "bplist00", a set holding object 1, the integer 5; offset table; trailer.
    static let tinySet = Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xC1, 0x01, 0x10, 0x05, 0x08, 0x0A]
        + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 12])

    @Test func aBinaryPlistHoldingASetIsRefusedBeforeFoundationBridgesIt() {
        #expect(throws: CoreDataModelCacheError.notAPropertyList(reason: "binary property list object 0 is a set, which keyed archives never hold")) {
            try KeyedArchive(propertyList: Self.tinySet)
        }
    }

    @Test func theFuzzersCrashingInputIsRefusedWithoutACrash() {
        #expect(throws: CoreDataModelCacheError.self) { try CoreDataModelCache.model(fromArchive: Self.fuzzCrash) }
    }

    @Test func aTrailerPointingOutsideTheFileIsRefused() {
        var bytes = [UInt8](Self.tinySet)
        bytes[bytes.count - 1] = 0xFF
        #expect(throws: CoreDataModelCacheError.notAPropertyList(reason: "binary property list trailer out of bounds")) {
            try BinaryPropertyListPrecheck.check(Data(bytes))
        }
    }

    @Test func aKeyedArchiveWithoutSetsPasses() throws {
        var a = KeyedArchiveFixture()
        let root = a.array([a.add("x")])
        try BinaryPropertyListPrecheck.check(a.archive(root: root))
    }
}
