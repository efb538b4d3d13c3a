import CNCurses
import Testing
@testable import CursesBackend

/// How a cell's grapheme cluster reaches curses (issue 34, item 23): never a dangling joiner.
@Suite struct CursesGlyphTests {
    /// The C library's widths as glibc gives them, for the characters used here.
    static func wcwidth(_ character: wchar_t) -> Int32 {
        switch UInt32(bitPattern: character) {
        case 0x7F: return -1
        case 0x200D, 0xFE0F, 0x0301: return 0
        case 0x1F1E6...0x1F1FF: return 1  // regional indicators
        case 0x1F3FB...0x1F3FF, 0x1F466...0x1F469, 0x1F44D, 0x6771: return 2
        default: return 1
        }
    }

    private func plan(_ text: String, width: Int) -> CursesGlyph {
        CursesGlyph.plan(text, expectedWidth: width, wcwidth: Self.wcwidth)
    }

    private func characters(_ text: String) -> [wchar_t] { text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } }

    @Test func plainAndWideCharactersAndCombiningMarksAreCursesCells() {
        #expect(plan("a", width: 1) == .cell(characters("a"), width: 1))
        #expect(plan("東", width: 2) == .cell(characters("東"), width: 2))
        #expect(plan("e\u{301}", width: 1) == .cell(characters("e\u{301}"), width: 1))
    }

    @Test func aZWJSequenceIsWrittenWholeOverItsFirstEmoji() {
        let family = "👨‍👩‍👧‍👦"
        #expect(plan(family, width: 2) == .overlay(placeholder: characters("👨"), width: 2, text: family))
        // Even a sequence short enough for a curses cell: a joiner must never end what curses sends.
        #expect(plan("👨\u{200D}", width: 2) == .overlay(placeholder: characters("👨"), width: 2, text: "👨\u{200D}"))
    }

    @Test func flagsAndSkinTonesAreOverlays() {
        #expect(plan("🇫🇷", width: 2) == .overlay(placeholder: characters("🇫"), width: 1, text: "🇫🇷"))
        #expect(plan("👍🏽", width: 2) == .overlay(placeholder: characters("👍"), width: 2, text: "👍🏽"))
    }

    @Test func moreMarksThanACursesCellHoldsAreAnOverlay() {
        let text = "a" + String(repeating: "\u{301}", count: Int(CCHARW_MAX))
        #expect(plan(text, width: 1) == .overlay(placeholder: characters("a"), width: 1, text: text))
    }

    @Test func anUnprintableOrTooWideFirstCharacterIsAQuestionMark() {
        #expect(plan("\u{7F}", width: 1) == .cell(characters("?"), width: 1))
        #expect(plan("東", width: 1) == .cell(characters("?"), width: 1))
    }

    @Test func onlyClustersOfSeveralScalarsMayNeedAnOverlay() {
        #expect(!CursesGlyph.mayNeedOverlay("a"))
        #expect(!CursesGlyph.mayNeedOverlay("東"))
        #expect(CursesGlyph.mayNeedOverlay("👨‍👩‍👧‍👦"))
        #expect(CursesGlyph.mayNeedOverlay("e\u{301}"))
    }
}
