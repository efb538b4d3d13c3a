/// A key the user pressed, decoded by the backend.
public enum Key: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// Control plus a letter, e.g. `.control("s")` for Ctrl-S.
    case control(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Return or Enter.
    case enter
    /// Escape (delivered after `ESCDELAY` when alone).
    case escape
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace.
    case backspace
    /// Delete (forward).
    case delete
    /// A function key, `F1` is `.function(1)`.
    case function(Int)
}

/// Something that happened to the terminal; the UI loop turns each into a state update.
public enum TerminalEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// A click or a turn of the wheel (when the backend reports the mouse).
    case mouse(MouseEvent)
    /// Text pasted with bracketed paste: text only, never keys (a pasted ESC is a character).
    case paste(String)
    /// The terminal now has this size (SIGWINCH).
    case resize(TerminalSize)
    /// SIGINT or SIGTERM arrived: the application should quit, restoring the terminal.
    case terminate(signal: Int32)
}
