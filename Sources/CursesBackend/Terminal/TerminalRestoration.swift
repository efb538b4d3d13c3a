import CNCurses
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide record of the terminal curses has taken over, so that it can be given back
/// from any exit path: ``CursesTerminal/stop()``, an `atexit` hook, or the application's own
/// fatal-error handling through ``CursesTerminal/restoreTerminalIfActive()``.
///
/// curses itself is process-global (one current screen), so this is too. The record is behind a
/// mutex and is taken out atomically, so the terminal is restored exactly once however many
/// paths race to do it.
enum TerminalRestoration {
    /// What is needed to put the terminal back.
    struct Session: Sendable {
        /// The descriptor of the terminal device curses draws on.
        var ttyDescriptor: Int32
        /// The terminal settings found at start.
        var originalSettings: termios
    }

    private static let session = Mutex<Session?>(nil)
    private static let exitHookInstalled = Mutex(false)

    /// Whether a terminal is currently taken over.
    static var isActive: Bool { session.withLock { $0 != nil } }

    /// Records `newSession` as active and makes sure the `atexit` hook is installed.
    static func begin(_ newSession: Session) {
        session.withLock { $0 = newSession }
        let install = exitHookInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if install {
            atexit { _ = TerminalRestoration.restoreIfActive() }
        }
    }

    /// Gives the terminal back if it is still taken over: shows the cursor, ends curses mode
    /// (which leaves the alternate screen and resets attributes) and restores the original
    /// settings. Returns whether there was anything to restore.
    ///
    /// Not async-signal-safe (it calls curses); meant for the main actor, `atexit` and
    /// last-chance error paths.
    @discardableResult
    static func restoreIfActive() -> Bool {
        guard let active = session.withLock({ current -> Session? in
            defer { current = nil }
            return current
        }) else { return false }
        BracketedPaste.disable(descriptor: active.ttyDescriptor)
        MouseReporting.disable(descriptor: active.ttyDescriptor)
        curs_set(1)
        endwin()
        var settings = active.originalSettings
        tcsetattr(active.ttyDescriptor, TCSADRAIN, &settings)
        return true
    }
}
