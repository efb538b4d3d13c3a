/// A one-row bar with text on the left and on the right: the title bar and the status line.
///
/// When both do not fit, the right part is cut first, then the left.
public struct BarLine: Sendable {
    /// Text against the left edge.
    public var left: String
    /// Text against the right edge.
    public var right: String
    /// The bar's style.
    public var style: CellStyle
    /// A message shown after the left text in its own style (errors), if any.
    public var message: (text: String, style: CellStyle)?

    /// Creates a bar.
    public init(left: String, right: String = "", style: CellStyle, message: (text: String, style: CellStyle)? = nil) {
        self.left = left
        self.right = right
        self.style = style
        self.message = message
    }

    /// Draws the bar into the first row of `rect`.
    public func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        buffer.fill(rect.row(0), style: style)
        var used = buffer.write(" " + left, x: rect.x, y: rect.y, style: style, maxWidth: rect.width)
        if let message, used + 3 < rect.width {
            used += buffer.write("  " + message.text, x: rect.x + used, y: rect.y, style: message.style, maxWidth: rect.width - used)
        }
        let rightWidth = DisplayWidth.of(right)
        if !right.isEmpty, used + rightWidth + 2 <= rect.width {
            buffer.write(right, x: rect.maxX - rightWidth - 1, y: rect.y, style: style)
        }
    }
}
