import QuarryTUI

/// Maps a ``TerminalColor`` to the colour number curses is given in a colour pair.
///
/// - On a direct-colour terminal (terminfo `colors` ≥ 2²⁴, e.g. `TERM=xterm-direct`) numbers
///   0–7 are the ANSI colours and larger numbers are `0xRRGGBB`, so 24-bit colours pass through.
/// - Otherwise RGB colours are mapped to the nearest palette entry the terminal has, and palette
///   entries beyond the terminal's range to the nearest ANSI colour.
/// - ``TerminalColor/default`` is -1 (`use_default_colors`); when the terminal cannot keep its
///   own colours the fallback is white on black.
package struct CursesColorResolver: Hashable, Sendable {
    /// The terminfo `colors` count.
    package var terminalColors: Int
    /// Whether the capability allows colour at all (``ColorCapability/none`` draws every cell
    /// in the terminal's own colours).
    package var usesColor: Bool
    /// Whether `use_default_colors` succeeded, so -1 means the terminal's own colour.
    package var supportsDefaultColors: Bool

    /// The smallest colour count ncurses treats as direct colour.
    package static let directColorThreshold = ColorCapability.directColorCount

    /// Creates a resolver.
    package init(terminalColors: Int, usesColor: Bool, supportsDefaultColors: Bool) {
        self.terminalColors = terminalColors
        self.usesColor = usesColor
        self.supportsDefaultColors = supportsDefaultColors
    }

    /// Whether 24-bit colours are drawn exactly.
    package var isDirectColor: Bool { terminalColors >= Self.directColorThreshold }

    /// The curses colour number for `color` used as a foreground (`isForeground`) or background.
    package func number(for color: TerminalColor, isForeground: Bool) -> Int32 {
        guard usesColor else { return -1 }
        switch color {
        case .default:
            if supportsDefaultColors { return -1 }
            return isForeground ? 7 : 0
        case .ansi(let index):
            return paletteNumber(index & 15)
        case .indexed(let index):
            return paletteNumber(index)
        case .rgb(let red, let green, let blue):
            if isDirectColor { return directNumber(red, green, blue) }
            if terminalColors >= 256 {
                return Int32(XtermPalette.nearestIndexed(to: XtermPalette.RGB(Int(red), Int(green), Int(blue))))
            }
            return limitedANSI(XtermPalette.nearestANSI(to: XtermPalette.RGB(Int(red), Int(green), Int(blue))))
        }
    }

    private func paletteNumber(_ index: UInt8) -> Int32 {
        if isDirectColor {
            // Only 0–7 keep their palette meaning; everything else is read as RGB.
            if index < 8 { return Int32(index) }
            let color = XtermPalette.rgb(ofIndex: index)
            let (red, green, blue) = (UInt8(color.red), UInt8(color.green), UInt8(color.blue))
            return directNumber(red, green, blue)
        }
        if Int(index) < terminalColors { return Int32(index) }
        return limitedANSI(XtermPalette.nearestANSI(to: XtermPalette.rgb(ofIndex: index)))
    }

    /// An ANSI colour on a terminal that may only have 8: bright colours fold onto normal ones.
    private func limitedANSI(_ index: UInt8) -> Int32 {
        Int32(Int(index) < terminalColors ? index : index & 7)
    }

    private func directNumber(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int32 {
        // Values below 8 would be taken as ANSI colours; the nearest RGB value above is invisible.
        max(8, Int32(red) << 16 | Int32(green) << 8 | Int32(blue))
    }
}
