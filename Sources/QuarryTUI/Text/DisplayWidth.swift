/// How many terminal cells text occupies: CJK and emoji take two, combining marks none.
///
/// Every column width, cut and pad in the UI goes through here, so text is never cut in the middle
/// of a character and wide characters never overflow a column.
public enum DisplayWidth {
    /// The cells one grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if character.isASCII {
            return character.asciiValue.map { $0 < 0x20 || $0 == 0x7F ? 0 : 1 } ?? 1  // "\r\n" is ASCII
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji presentation sequence (VS16, ZWJ sequence, keycap, flag) is drawn wide.
        if scalars.count > 1 && scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D || $0.value == 0x20E3 }) {
            return 2
        }
        if scalars.count > 1, (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        return width(of: first)
    }

    /// The cells `text` occupies.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The cells a single scalar occupies when it starts a grapheme.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (value >= 0x7F && value < 0xA0) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(value) ? 2 : 1
    }

    /// Whether a code point is East Asian Wide or Fullwidth (Unicode 15 ranges, abridged to blocks).
    static func isEastAsianWide(_ value: UInt32) -> Bool {
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F64F,
        0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD,
        0x30000...0x3FFFD,
    ]

    /// `text` cut to at most `width` cells; when it had to be cut, the last cell is `ellipsis`.
    ///
    /// Never cuts inside a grapheme; a wide character that would straddle the edge is dropped.
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        if text.utf8.count <= width && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        if of(text) <= width { return text }
        let limit = width - of(ellipsis)
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > limit { break }
            result.append(character)
            used += w
        }
        result.append(ellipsis)
        return result
    }

    /// `text` cut to `width` cells (with an ellipsis when cut) and padded with spaces to exactly `width`.
    public static func fit(_ text: String, toWidth width: Int, alignment: TextAlignment = .leading) -> String {
        let cut = truncate(text, toWidth: width)
        let padding = max(0, width - of(cut))
        switch alignment {
        case .leading: return cut + String(repeating: " ", count: padding)
        case .trailing: return String(repeating: " ", count: padding) + cut
        }
    }
}

/// Where text sits in a wider space.
public enum TextAlignment: Sendable {
    /// Against the left edge.
    case leading
    /// Against the right edge (numbers).
    case trailing
}
