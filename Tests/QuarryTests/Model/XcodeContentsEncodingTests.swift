import Foundation
import Quarry
import Testing

/// Found by the xcode fuzz target (scripts/fuzz.sh): `contents` that FoundationXML crashes on (names
/// that are not UTF-8, processing instructions) must be refused with a ModelError.
struct XcodeContentsEncodingTests {
    @Test(arguments: [
              Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model><entity n".utf8) + Data([0xD6]) + Data("me=\"Sector\"/></model>".utf8),
              Data("<model><e".utf8) + Data([0xD6]) + Data("/></model>".utf8),
          ])
    func contentsWhoseNamesAreNotUTF8AreRefused(contents: Data) {
        #expect(throws: ModelError.self) {
            try ModelDefinition(xcodeContents: contents, path: "Broken.xcdatamodel/contents")
        }
    }

    @Test(arguments: ["<?xml?><?e", "<?xml?>\n<m><?e?></m>", "<?xm?>\n<model \"pryear &wt; 200 ers",
                      "<?xml version=\"1.0\" encoe=\"yes\"\u{7F}>\n<model\" documentangu-<?n?>s\"\n<modele tiiyfr=2\">eDCor"])
    func aProcessingInstructionIsRefused(contents: String) {
        #expect(throws: ModelError.self) {
            try ModelDefinition(xcodeContents: Data(contents.utf8), path: "Broken.xcdatamodel/contents")
        }
    }
}

/// What the refusals say: the file, the line and column of the fault, and why.
struct XcodeContentsPrecheckMessageTests {
    @Test func aByteThatIsNotUTF8IsNamedWithItsPosition() {
        let contents = Data("<?xml version=\"1.0\"?>\n<model>\n  <entity na".utf8) + Data([0xD6]) + Data("me=\"A\"/>\n</model>".utf8)
        #expect(throws: ModelError.malformedFile(path: "M.xcdatamodel/contents", line: 3, column: 13,
                                                 reason: "the file is not UTF-8 text (invalid byte 0xD6)")) {
            try ModelDefinition(xcodeContents: contents, path: "M.xcdatamodel/contents")
        }
    }

    @Test func aProcessingInstructionIsNamedWithItsPosition() {
        let contents = Data("<?xml version=\"1.0\"?>\n<model>\n<?php x ?></model>".utf8)
        #expect(throws: ModelError.malformedFile(path: "M.xcdatamodel/contents", line: 3, column: 1,
                                                 reason: "unexpected processing instruction (<?…?>): Core Data model files have none")) {
            try ModelDefinition(xcodeContents: contents, path: "M.xcdatamodel/contents")
        }
    }

    @Test func commentsAndCDATAMayHoldQuestionMarksAndABOMIsAccepted() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- <?not a PI?> -->\n<model><entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity></model>"
        let definition = try ModelDefinition(xcodeContents: Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), path: "M.xcdatamodel/contents")
        #expect(definition.entities.map(\.name) == ["A"])
    }
}
