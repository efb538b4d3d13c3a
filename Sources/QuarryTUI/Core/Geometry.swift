/// The size of a terminal or buffer in cells.
public struct TerminalSize: Hashable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size of `width` columns by `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A rectangle of cells: origin at the top-left, `x` to the right, `y` down.
public struct Rect: Hashable, Sendable {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// One past the right column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The single row `row` (relative to the top) of this rectangle.
    public func row(_ row: Int) -> Rect { Rect(x: x, y: y + row, width: width, height: row < height ? 1 : 0) }

    /// This rectangle shrunk by `inset` cells on every side.
    public func inset(by inset: Int) -> Rect {
        Rect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
    }
}
