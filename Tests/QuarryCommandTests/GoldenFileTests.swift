import Foundation
import QuarryTestSupport
import Testing

/// The golden-file helper itself (docs/goldens.md): a difference fails with the lines that
/// differ, numbered; a missing file fails; an equal text passes.
@Suite("Golden files: the comparison and its diff")
struct GoldenFileTests {
    let directory = TemporaryDirectory()

    @Test("a one-character change shows as the golden's line removed and the new one added, numbered")
    func diffOfOneCharacter() {
        let diff = LineDiff(expected: ["a", "b", "row 1/30", "c"], actual: ["a", "b", "Row 1/30", "c"])
        #expect(diff.hasChanges)
        #expect(diff.text(context: 1) == [
            "      …",
            "     2 │b",
            "-    3 │row 1/30",
            "+    3 │Row 1/30",
            "     4 │c",
        ].joined(separator: "\n"))
    }

    @Test("added and removed lines keep their own numbers; trailing blanks are marked")
    func linesAddedAndRemoved() {
        let diff = LineDiff(expected: ["one", "two", "three"], actual: ["one", "three", "four "])
        #expect(diff.lines == [
            .same(expected: 1, actual: 1, text: "one"),
            .removed(expected: 2, text: "two"),
            .same(expected: 3, actual: 2, text: "three"),
            .added(actual: 3, text: "four "),
        ])
        #expect(diff.text().hasSuffix("+    3 │four ⏎"))
        #expect(!LineDiff(expected: ["x"], actual: ["x"]).hasChanges)
    }

    @Test("an equal text passes; line ends are normalised")
    func equalTextPasses() throws {
        try "line 1\nline 2\n".write(to: directory.file("same.txt"), atomically: true, encoding: .utf8)
        assertGolden("line 1\r\nline 2", named: "same.txt", in: directory.url)
    }

    @Test("a different text and a missing file each fail",
          .enabled(if: !GoldenFile.isRecording, "a recording run writes the file instead"))
    func differencesFail() throws {
        try "line 1\n".write(to: directory.file("other.txt"), atomically: true, encoding: .utf8)
        withKnownIssue("the text differs from the golden") {
            assertGolden("line one", named: "other.txt", in: directory.url)
        }
        withKnownIssue("there is no golden file") {
            assertGolden("anything", named: "missing.txt", in: directory.url)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.txt").path), "a comparison never writes")
    }
}
