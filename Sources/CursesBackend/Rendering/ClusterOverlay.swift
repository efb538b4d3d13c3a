import CNCurses
import QuarryTUI

/// The escape sequences that write a grapheme cluster curses cannot hold in one cell
/// (``CursesGlyph/overlay``) over the placeholder curses drew for it, in the cell's attributes
/// and colours, taken from the terminal's terminfo entry as curses' own are.
///
/// The sequences are sent right after `doupdate`, which leaves the terminal in its normal
/// attributes and the cursor where curses recorded it. Each overlay starts and ends in the
/// normal attributes, and ``cursorMove(x:y:)`` puts the cursor back afterwards, so curses'
/// idea of the terminal stays true whatever width the terminal gives the cluster.
struct ClusterOverlay {
    private let cursorAddress: String
    private let reset: [UInt8]
    private let attributeOn: [(TextAttributes, [UInt8])]
    private let setForeground: String?
    private let setBackground: String?

    /// Reads the capabilities of the terminal set up with `setupterm`; `nil` without cursor
    /// addressing or a way to reset attributes (the placeholders then stay).
    init?() {
        guard let cup = Self.capability("cup"), let sgr0 = Self.capability("sgr0") else { return nil }
        cursorAddress = cup
        reset = Array(sgr0.utf8)
        attributeOn = [(.bold, "bold"), (.dim, "dim"), (.italic, "sitm"), (.underline, "smul"), (.reverse, "rev")]
            .compactMap { attribute, name in Self.capability(name).map { (attribute, Array($0.utf8)) } }
        setForeground = Self.capability("setaf")
        setBackground = Self.capability("setab")
    }

    /// The bytes that draw `text` with its first cell at (`x`, `y`), in `attributes` and the
    /// curses colour numbers `foreground` and `background` (-1: the terminal's own).
    func draw(_ text: String, x: Int, y: Int, attributes: TextAttributes, foreground: Int32, background: Int32) -> [UInt8] {
        var bytes = cursorMove(x: x, y: y) + reset
        for (attribute, sequence) in attributeOn where attributes.contains(attribute) { bytes += sequence }
        if foreground >= 0, let setForeground { bytes += Self.parameterized(setForeground, foreground) }
        if background >= 0, let setBackground { bytes += Self.parameterized(setBackground, background) }
        return bytes + Array(text.utf8) + reset
    }

    /// The bytes that move the cursor to (`x`, `y`).
    func cursorMove(x: Int, y: Int) -> [UInt8] {
        Array(String(cString: quarry_tiparm2(cursorAddress, Int32(y), Int32(x))).utf8)
    }

    private static func parameterized(_ capability: String, _ value: Int32) -> [UInt8] {
        Array(String(cString: quarry_tiparm1(capability, value)).utf8)
    }

    /// A string capability of the current terminal, `nil` when absent or cancelled.
    private static func capability(_ name: String) -> String? {
        guard let value = tigetstr(name), Int(bitPattern: value) != -1 else { return nil }
        return String(cString: value)
    }
}
