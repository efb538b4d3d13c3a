/// How many terminal cells text occupies: CJK and emoji take two, combining marks none.
///
/// Every column width, cut and pad in the UI goes through here, so text is never cut in the middle
/// of a character and wide characters never overflow a column. Widths follow Unicode 15
/// (East Asian Wide and Fullwidth are two cells) and measure whole grapheme clusters the way
/// modern terminals draw them:
///
/// - printable ASCII is one cell (with a fast path that never looks at Unicode tables);
/// - C0 and C1 controls, combining and enclosing marks, format characters (ZWJ, ZWSP, bidi
///   marks) and Hangul medial vowels and final consonants are zero cells;
/// - emoji presentation, a VS16 (`U+FE0F`) sequence, a keycap, a ZWJ sequence, a skin-tone
///   modifier sequence and a regional-indicator flag pair are two cells;
/// - an emoji followed by VS15 (`U+FE0E`, text presentation) is one cell;
/// - U+00AD SOFT HYPHEN is one cell, as terminals draw it.
///
/// All functions are pure and safe to call from any thread.
///
/// ```swift
/// DisplayWidth.of("東京")        // 4
/// DisplayWidth.of("👨‍👩‍👧")        // 2
/// DisplayWidth.truncate("東京タワー", toWidth: 5)  // "東京…"
/// ```
public enum DisplayWidth {
    /// The cells one grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {  // also "\r\n", whose value is 0x0A
            return ascii < 0x20 || ascii == 0x7F ? 0 : 1
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.index(after: scalars.startIndex) == scalars.endIndex { return width(of: first) }
        return width(ofCluster: scalars, first: first)
    }

    /// The cells `text` occupies: the sum of its grapheme clusters' widths.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return widthOfCharacters(text) }
            if byte >= 0x20 && byte != 0x7F { total += 1 }
        }
        return total
    }

    /// The cells a single scalar occupies when it starts a grapheme: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }  // DEL and the C1 controls
        if value < 0x300 { return 1 }  // Latin-1 and Latin Extended have no marks or wide characters
        if isEastAsianWide(value) {
            // The only marks inside wide ranges: ideographic tone marks and kana voicing marks.
            return (0x302A...0x302D).contains(value) || value == 0x3099 || value == 0x309A || value == 0x16FE4 ? 0 : 2
        }
        if isZeroWidth(scalar) { return 0 }
        // Emoji newer than the compiled table still draw wide; a lone regional indicator does not.
        if value >= 0x1F000 && !(0x1F1E6...0x1F1FF).contains(value) && scalar.properties.isEmojiPresentation {
            return 2
        }
        return 1
    }

    private static func widthOfCharacters<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Whether a non-ASCII scalar takes no cell of its own.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }  // Hangul jamo V and T
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// The width of a cluster of two or more scalars: emoji sequences are wide, VS15 makes an
    /// emoji narrow, anything else is as wide as its widest scalar.
    private static func width(ofCluster scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int {
        var regionalIndicators = 0
        var textPresentation = false
        var emojiSequence = false
        var widest = 0
        for scalar in scalars {
            switch scalar.value {
            case 0xFE0E: textPresentation = true
            case 0xFE0F, 0x200D, 0x20E3, 0x1F3FB...0x1F3FF: emojiSequence = true
            case 0x1F1E6...0x1F1FF: regionalIndicators += 1
            default: break
            }
            widest = max(widest, width(of: scalar))
        }
        if regionalIndicators >= 2 { return 2 }
        if first.properties.isEmoji {
            if textPresentation && !emojiSequence { return 1 }
            if emojiSequence { return 2 }
        }
        return min(widest, 2)
    }
}
