import Foundation
import Quarry
import Testing

/// Found by the xcode fuzz target (scripts/fuzz.sh): `contents` whose element or attribute names
/// are not UTF-8 must be refused with a ModelError, not trap inside FoundationXML.
struct XcodeContentsEncodingTests {
    @Test(.disabled("traps in FoundationXML until XcodeContentsParser refuses input that is not UTF-8 (issue 15 CI report; Fuzz/QuarryFuzz/KnownCrashes.swift)"),
          arguments: [
              Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model><entity n".utf8) + Data([0xD6]) + Data("me=\"Sector\"/></model>".utf8),
              Data("<model><e".utf8) + Data([0xD6]) + Data("/></model>".utf8),
          ])
    func contentsWhoseNamesAreNotUTF8AreRefused(contents: Data) {
        #expect(throws: ModelError.self) {
            try ModelDefinition(xcodeContents: contents, path: "Broken.xcdatamodel/contents")
        }
    }
}
