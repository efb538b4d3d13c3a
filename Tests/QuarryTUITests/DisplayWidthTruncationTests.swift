import Testing
@testable import QuarryTUI

/// Cutting and padding text to a number of cells.
@Suite struct DisplayWidthTruncationTests {
    @Test func textThatFitsIsUnchanged() {
        #expect(DisplayWidth.truncate("hello", toWidth: 5) == "hello")
        #expect(DisplayWidth.truncate("東京タワー", toWidth: 10) == "東京タワー")
        #expect(DisplayWidth.truncate("e\u{301}", toWidth: 1) == "e\u{301}")
    }

    @Test func asciiIsCutWithTheEllipsisInTheLastCell() {
        #expect(DisplayWidth.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(DisplayWidth.truncate("hello", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("hello", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("hello", toWidth: -3) == "")
        #expect(DisplayWidth.truncate("hello world", toWidth: 6, ellipsis: ">") == "hello>")
    }

    @Test func wideCharacterAtTheEdgeIsDroppedNotHalved() {
        #expect(DisplayWidth.truncate("東京タワー", toWidth: 5) == "東京…")
        #expect(DisplayWidth.truncate("東京タワー", toWidth: 6) == "東京…")
        #expect(DisplayWidth.truncate("東京タワー", toWidth: 7) == "東京タ…")
        #expect(DisplayWidth.truncate("東京", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("東京", toWidth: 2, ellipsis: "…") == "…")
    }

    @Test func clustersAreNeverSplit() {
        #expect(DisplayWidth.truncate("ab👨‍👩‍👧‍👦cd", toWidth: 4) == "ab…")
        #expect(DisplayWidth.truncate("ab👨‍👩‍👧‍👦cd", toWidth: 5) == "ab👨‍👩‍👧‍👦…")
        #expect(DisplayWidth.truncate("🇯🇵🇫🇷🇩🇪", toWidth: 5) == "🇯🇵🇫🇷…")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}x", toWidth: 3) == "e\u{301}e\u{301}…")
        #expect(DisplayWidth.truncate("한국어", toWidth: 4) == "한…")
    }

    @Test func wideEllipsisThatCannotFitIsLeftOut() {
        #expect(DisplayWidth.truncate("abc", toWidth: 1, ellipsis: "東") == "a")
        #expect(DisplayWidth.truncate("abcdef", toWidth: 4, ellipsis: "東") == "ab東")
    }

    @Test func resultNeverExceedsTheWidthAndKeepsAWholeCharacterPrefix() {
        let samples = ["plain ascii text", "東京タワー and more", "👨‍👩‍👧‍👦🇯🇵e\u{301}한국", "a\u{200B}b\u{301}c", "🏳️‍🌈x❤️y"]
        for text in samples {
            for width in 0...20 {
                let cut = DisplayWidth.truncate(text, toWidth: width)
                #expect(DisplayWidth.of(cut) <= width, "\(text) \(width)")
                let kept = cut.hasSuffix("…") && cut != text ? String(cut.dropLast()) : cut
                #expect(Array(text).starts(with: Array(kept)), "\(text) \(width)")
            }
        }
    }

    @Test func fitPadsToExactlyTheWidth() {
        #expect(DisplayWidth.fit("abc", toWidth: 5) == "abc  ")
        #expect(DisplayWidth.fit("abc", toWidth: 5, alignment: .trailing) == "  abc")
        #expect(DisplayWidth.fit("東京タワー", toWidth: 6) == "東京… ")
        #expect(DisplayWidth.fit("東京タワー", toWidth: 6, alignment: .trailing) == " 東京…")
        for width in 0...8 {
            #expect(DisplayWidth.of(DisplayWidth.fit("👨‍👩‍👧‍👦 東京", toWidth: width)) == width)
        }
    }
}
