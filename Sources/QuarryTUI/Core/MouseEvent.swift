/// A mouse action the terminal reported (xterm's SGR mouse mode, 1006): a button pressed or
/// released, or the wheel turned, at a cell.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        /// The left button went down.
        case press
        /// A button came up.
        case release
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
        /// Another button went down (middle, right); ignored by the browser.
        case otherPress
    }

    /// What the mouse did.
    public var action: Action
    /// The cell's column, 0-based.
    public var x: Int
    /// The cell's row, 0-based.
    public var y: Int

    /// Creates an event at (`x`, `y`), 0-based.
    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
