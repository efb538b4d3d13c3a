import Foundation
import Quarry
import Testing

/// Found by the xcode fuzz target (scripts/fuzz.sh): `contents` that FoundationXML crashes on (names
/// that are not UTF-8, processing instructions) must be refused with a ModelError.
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

    @Test(.disabled("SIGSEGV in FoundationXML until XcodeContentsParser refuses processing instructions (issue 15 CI report; Fuzz/QuarryFuzz/KnownCrashes.swift)"),
          arguments: ["<?xml?><?e", "<?xml?>\n<m><?e?></m>", "<?xm?>\n<model \"pryear &wt; 200 ers"])
    func aProcessingInstructionIsRefused(contents: String) {
        #expect(throws: ModelError.self) {
            try ModelDefinition(xcodeContents: Data(contents.utf8), path: "Broken.xcdatamodel/contents")
        }
    }
}
