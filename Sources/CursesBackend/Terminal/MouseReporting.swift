import CNCurses
import QuarryTUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Mouse reporting in xterm's SGR form (``SGRMouse``): turned on at start and after every
/// resume when the terminal was made with `mouse: true`, and off before every way the terminal
/// is given back (``CursesTerminal/stop()``, Ctrl-Z, ``CursesTerminal/suspendForOutput(_:)``,
/// the `atexit` hook), so a shell never receives reports.
///
/// curses is taught the report's prefix `ESC [ <` as a key code of its own; the characters up
/// to the final `M` or `m` are then collected and parsed by the backend.
enum MouseReporting {
    /// The key code curses reports for `ESC [ <` (beside bracketed paste's two).
    static let prefixKeyCode: Int32 = 0x1202
    /// The longest report body accepted (`1023;10000;10000M`); anything longer is dropped.
    static let maximumBodyLength = 20

    /// Teaches the current curses screen the prefix.
    static func defineKeys() { _ = define_key(SGRMouse.prefix, prefixKeyCode) }

    /// Asks the terminal on `descriptor` to report clicks and the wheel.
    static func enable(descriptor: Int32) { TerminalOutput.send(descriptor, SGRMouse.enableSequence) }

    /// Asks the terminal on `descriptor` to stop reporting (harmless when it never started).
    static func disable(descriptor: Int32) { TerminalOutput.send(descriptor, SGRMouse.disableSequence) }
}

/// Writes control sequences straight to the terminal device, beside curses' own output.
enum TerminalOutput {
    /// Writes `text` to `descriptor` whole (retrying short writes and interruptions).
    static func send(_ descriptor: Int32, _ text: String) {
        guard descriptor >= 0 else { return }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }
}
