import CNCurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bracketed paste (xterm mode 2004): the terminal wraps pasted text in `ESC[200~` … `ESC[201~`,
/// so the backend can deliver it as text instead of keys.
///
/// Turned on at start and after every resume, off before every way the terminal is given back
/// (``CursesTerminal/stop()``, Ctrl-Z, ``CursesTerminal/suspendForOutput(_:)``, the `atexit` hook),
/// so a shell never receives the markers. curses is taught the two markers as key codes of
/// their own, so they arrive whole however the bytes were split.
enum BracketedPaste {
    /// The key code curses reports for `ESC[200~` (above every `KEY_*` constant).
    static let startKeyCode: Int32 = 0x1200
    /// The key code curses reports for `ESC[201~`.
    static let endKeyCode: Int32 = 0x1201

    /// Teaches the current curses screen the two markers.
    static func defineKeys() {
        _ = define_key("\u{1B}[200~", startKeyCode)
        _ = define_key("\u{1B}[201~", endKeyCode)
    }

    /// Asks the terminal on `descriptor` to bracket pastes.
    static func enable(descriptor: Int32) { TerminalOutput.send(descriptor, "\u{1B}[?2004h") }

    /// Asks the terminal on `descriptor` to stop bracketing pastes.
    static func disable(descriptor: Int32) { TerminalOutput.send(descriptor, "\u{1B}[?2004l") }
}
