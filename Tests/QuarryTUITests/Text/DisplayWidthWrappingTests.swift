import Testing
@testable import QuarryTUI

/// Wrapping a message so all of it shows (issue 34, item 16).
@Suite struct DisplayWidthWrappingTests {
    @Test func textThatFitsIsOneLine() {
        #expect(DisplayWidth.wrap("row 1/50", toWidth: 8) == ["row 1/50"])
        #expect(DisplayWidth.wrap("", toWidth: 8) == [""])
    }

    @Test func linesBreakAtTheirLastSpaceWhichIsDropped() {
        #expect(DisplayWidth.wrap("unexpected ')' at column 12", toWidth: 16) == ["unexpected ')'", "at column 12"])
        #expect(DisplayWidth.wrap("aaa bbb ccc", toWidth: 7) == ["aaa bbb", "ccc"])
    }

    @Test func aWordLongerThanTheWidthIsCutBetweenCharacters() {
        #expect(DisplayWidth.wrap("/very/long/path.toml:3", toWidth: 10) == ["/very/long", "/path.toml", ":3"])
    }

    @Test func wideCharactersAndEmojiSequencesMoveWhole() {
        #expect(DisplayWidth.wrap("東京タワー", toWidth: 5) == ["東京", "タワ", "ー"])
        let family = "👨‍👩‍👧‍👦"
        #expect(DisplayWidth.wrap("ab\(family)cd", toWidth: 3) == ["ab", "\(family)c", "d"])
    }

    @Test func everyLineFitsAndNothingIsLost() {
        let text = "cannot compare 'price' (Double) with the string 'abc' at column 9"
        for width in 1...40 {
            let lines = DisplayWidth.wrap(text, toWidth: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "width \(width): \(lines)")
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "width \(width): \(lines)")
        }
    }
}
