import QuarryTUI

/// Why ``CursesTerminal/start(handler:)`` could not take over the terminal.
public enum CursesTerminalError: Error, Equatable, CustomStringConvertible {
    /// The process has no controlling terminal to open (`/dev/tty`), e.g. under a service manager.
    case cannotOpenTerminal(path: String, errno: Int32)
    /// The device opened is not a terminal (its settings cannot be read).
    case notATerminal(path: String)
    /// curses has no description of this terminal type (`TERM`).
    case unknownTerminalType(String)
    /// The terminal type cannot move the cursor (no `cup` in terminfo, e.g. `TERM=dumb`).
    case noCursorAddressing(String)
    /// Another ``CursesTerminal`` already owns the terminal; curses drives one screen per process.
    case alreadyActive

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .cannotOpenTerminal(let path, let code):
            return "cannot open the terminal \(path) (errno \(code)): run this command from an interactive terminal"
        case .notATerminal(let path):
            return "\(path) is not a terminal: run this command from an interactive terminal"
        case .unknownTerminalType(let type):
            return "unknown terminal type '\(ControlEscaping.escaped(type))': set TERM to a type in the terminfo database (for example xterm-256color)"
        case .noCursorAddressing(let type):
            return "the terminal type '\(ControlEscaping.escaped(type))' cannot move the cursor (terminfo has no cup): run the browser in a full terminal, with TERM set to e.g. xterm-256color"
        case .alreadyActive:
            return "the terminal is already in use by another curses session in this process"
        }
    }
}
