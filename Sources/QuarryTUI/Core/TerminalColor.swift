/// A colour a cell can be drawn in, from the terminal's own default to 24-bit RGB.
///
/// Themes name colours in any of these forms; the backend draws them with what the terminal can
/// show (see ``ColorCapability``).
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own foreground or background (the user's terminal theme shows through).
    case `default`
    /// One of the 16 ANSI colours: 0–7 normal, 8–15 bright.
    case ansi(UInt8)
    /// An index into the xterm 256-colour palette.
    case indexed(UInt8)
    /// A 24-bit colour, drawn as such only on truecolor terminals.
    case rgb(UInt8, UInt8, UInt8)
}

/// What colours the terminal can show, decided once at start-up from the environment.
public enum ColorCapability: Int, Comparable, Sendable {
    /// No colour at all (`NO_COLOR`): only attributes such as bold and reverse.
    case none = 0
    /// The 16 ANSI colours.
    case ansi16 = 1
    /// The xterm 256-colour palette.
    case indexed256 = 2
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case truecolor = 3

    /// Orders capabilities from none to truecolor.
    public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool { lhs.rawValue < rhs.rawValue }
}
