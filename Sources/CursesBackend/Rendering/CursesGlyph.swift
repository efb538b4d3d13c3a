import CNCurses

/// How one cell's grapheme cluster reaches the terminal through curses.
///
/// A curses cell (`cchar_t`) holds one spacing character and at most `CCHARW_MAX - 1`
/// zero-width characters riding on it, and `setcchar` cuts the text at a second spacing
/// character. A grapheme cluster such as a ZWJ emoji sequence (`👨‍👩‍👧‍👦`: four emoji joined by
/// three U+200D), a flag (two regional indicators) or a skin-tone sequence does not fit. Handing
/// curses a part of it leaves a dangling joiner, which terminals join with whatever is written
/// next, shifting the rest of the row (and curses' idea of the cursor) by a cell. Such a cluster
/// is an ``overlay``: curses draws a placeholder of the cluster's width and colours, so its
/// model of the screen stays right, and the whole cluster is written over it after each update
/// (``ClusterOverlay``), taking the cells terminals give it.
///
/// A pure function of the text and the C library's widths, so it is tested without a terminal.
package enum CursesGlyph: Equatable, Sendable {
    /// Curses draws these characters (null-terminated by the caller) in one cell, `width` wide.
    case cell([wchar_t], width: Int)
    /// Curses draws `placeholder` (`width` cells wide), then `text` is written over it whole.
    case overlay(placeholder: [wchar_t], width: Int, text: String)

    /// ZERO WIDTH JOINER: joins the next spacing character into this cluster.
    static let joiner: UInt32 = 0x200D

    /// The glyph for `text` (one grapheme cluster, never empty) in a cell the screen buffer made
    /// `expectedWidth` (1 or 2) wide, `wcwidth` being the C library's width of one character.
    ///
    /// A cluster whose first character the C library cannot print (or measures wider than the
    /// cell) is drawn as `?` in one cell, so curses' screen and the buffer stay aligned.
    package static func plan(_ text: String, expectedWidth: Int, wcwidth: (wchar_t) -> Int32) -> CursesGlyph {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return .cell([wchar_t(UInt8(ascii: "?"))], width: 1) }
        let firstValue = wchar_t(bitPattern: first.value)
        let width = first.isASCII && first.value >= 0x20 && first.value < 0x7F ? 1 : Int(wcwidth(firstValue))
        guard width == expectedWidth || (width == 1 && expectedWidth == 2) else {
            return .cell([wchar_t(UInt8(ascii: "?"))], width: 1)
        }
        var characters = [firstValue]
        while let next = scalars.next() {
            let value = wchar_t(bitPattern: next.value)
            // Joined, spacing or too many: not a curses cell.
            guard next.value != joiner, wcwidth(value) == 0, characters.count < Int(CCHARW_MAX) else {
                return .overlay(placeholder: [firstValue], width: width, text: text)
            }
            characters.append(value)
        }
        return .cell(characters, width: width)
    }

    /// Whether `text` can need an overlay at all: a cluster of one scalar never does (a quick
    /// test for every cell of a row, before ``plan(_:expectedWidth:wcwidth:)``).
    package static func mayNeedOverlay(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        _ = scalars.next()
        return scalars.next() != nil
    }
}
