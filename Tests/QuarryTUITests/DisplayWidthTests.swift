import Testing
@testable import QuarryTUI

/// Cell widths of characters and strings.
@Suite struct DisplayWidthTests {
    @Test func asciiIsOneCellAndControlsAreNone() {
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("a\tb\u{7F}\u{1B}") == 2)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.of(Character("\r\n")) == 0)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("abc"[...]) == 3)
    }

    @Test func latinAndC1Controls() {
        #expect(DisplayWidth.of("naïve café") == 10)
        #expect(DisplayWidth.of("\u{85}\u{9B}") == 0)
        #expect(DisplayWidth.of("co\u{AD}op") == 5)  // soft hyphen is drawn
    }

    @Test func cjkAndFullwidthAreTwo() {
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("中文字符") == 8)
        #expect(DisplayWidth.of("ＡＢＣ") == 6)
        #expect(DisplayWidth.of("ｱｲｳ") == 3)  // halfwidth katakana
        #expect(DisplayWidth.of("\u{3000}") == 2)  // ideographic space
        #expect(DisplayWidth.of("カタカナ、ひらがな。") == 20)
        #expect(DisplayWidth.width(of: "\u{20000}") == 2)  // CJK Extension B
        #expect(DisplayWidth.width(of: "\u{31350}") == 2)  // CJK Extension H (Unicode 15)
        #expect(DisplayWidth.width(of: "\u{1B132}") == 2)  // small hiragana ko (Unicode 15)
        #expect(DisplayWidth.width(of: "\u{4DC0}") == 1)  // a hexagram sits between wide blocks but is narrow
        #expect(DisplayWidth.width(of: "\u{FF61}") == 1)
    }

    @Test func hangulSyllablesAndJamo() {
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)  // 각 from conjoining jamo
        #expect(DisplayWidth.width(of: "\u{1100}") == 2)
        #expect(DisplayWidth.width(of: "\u{1161}") == 0)
        #expect(DisplayWidth.width(of: "\u{11A8}") == 0)
        #expect(DisplayWidth.width(of: "\u{D7B0}") == 0)
    }

    @Test func combiningMarksAndFormatCharactersAreNone() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("e\u{301}\u{323}x") == 2)
        #expect(DisplayWidth.of("a\u{20DD}") == 1)  // enclosing circle
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("\u{200E}\u{2060}\u{FEFF}") == 0)
        #expect(DisplayWidth.of("か\u{3099}") == 2)
        #expect(DisplayWidth.width(of: "\u{3099}") == 0)
        #expect(DisplayWidth.width(of: "\u{302A}") == 0)
    }

    @Test func emojiAreTwo() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("⌚") == 2)
        #expect(DisplayWidth.of("🫨") == 2)  // Unicode 15
        #expect(DisplayWidth.of("🛜") == 2)  // Unicode 15
        #expect(DisplayWidth.of("a😀b") == 4)
    }

    @Test func variationSelectorsChoosePresentation() {
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 2)
        #expect(DisplayWidth.of("⌚\u{FE0E}") == 1)
        #expect(DisplayWidth.of("☺\u{FE0E}") == 1)
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)  // keycap
        #expect(DisplayWidth.of("#\u{FE0F}\u{20E3}") == 2)
    }

    @Test func zwjSequencesAndSkinTonesAreTwo() {
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧‍👦") == 2)
        #expect(DisplayWidth.of("🏳️‍🌈") == 2)
        #expect(DisplayWidth.of("🧑🏽‍💻") == 2)
        #expect(DisplayWidth.of("❤️‍🔥") == 2)
        #expect(DisplayWidth.of("🏽") == 2)  // a lone modifier is drawn as a swatch
        #expect(DisplayWidth.of("family: 👨‍👩‍👧‍👦!") == 11)
    }

    @Test func flagsArePairsOfRegionalIndicators() {
        #expect(DisplayWidth.of("🇯🇵") == 2)
        #expect(DisplayWidth.of("🇯🇵🇫🇷🇩🇪") == 6)
        #expect(DisplayWidth.of("🇯") == 1)
        #expect(DisplayWidth.of("🏴󠁧󠁢󠁳󠁣󠁴󠁿") == 2)  // tag sequence
    }

    @Test func wideTableIsSortedAndDisjoint() {
        let ranges = DisplayWidth.eastAsianWideRanges
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            #expect(previous.upperBound + 1 < next.lowerBound, "\(previous) \(next)")
        }
    }

    @Test func everyEmojiPresentationScalarIsWide() {
        var narrow: [UInt32] = []
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation else { continue }
            if (0x1F1E6...0x1F1FF).contains(value) { continue }  // regional indicators pair up instead
            if DisplayWidth.width(of: scalar) != 2 { narrow.append(value) }
        }
        #expect(narrow.isEmpty, "\(narrow.map { String($0, radix: 16) })")
    }
}
