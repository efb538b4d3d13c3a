/// A one-row bar with text on the left and on the right: the title bar and the status line.
///
/// When both do not fit, the right part is cut first, then the left. A message (an error, the
/// importer's state) has priority over both: it is always shown whole when it fits the bar, and
/// the left text is shortened (with `…`) to make room, at any width.
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
        guard let message else {
            let used = buffer.write(" " + left, x: rect.x, y: rect.y, style: style, maxWidth: rect.width)
            writeRight(into: &buffer, rect: rect, used: used)
            return
        }
        // The message first: it takes what it needs (cut only when wider than the bar).
        let available = max(0, rect.width - 1)
        let text = DisplayWidth.truncate(message.text, toWidth: available)
        let messageWidth = DisplayWidth.of(text)
        // The left text gets what is left, less two cells of separation, shortened with `…`.
        let leftRoom = available - messageWidth - 2
        var used = 1
        if leftRoom >= 4, !left.isEmpty {
            used += buffer.write(DisplayWidth.truncate(left, toWidth: leftRoom), x: rect.x + 1, y: rect.y, style: style, maxWidth: leftRoom)
            used += 2
        }
        used += buffer.write(text, x: rect.x + used, y: rect.y, style: message.style, maxWidth: rect.width - used)
        writeRight(into: &buffer, rect: rect, used: used)
    }

    private func writeRight(into buffer: inout ScreenBuffer, rect: Rect, used: Int) {
        let rightWidth = DisplayWidth.of(right)
        if !right.isEmpty, used + rightWidth + 2 <= rect.width {
            buffer.write(right, x: rect.maxX - rightWidth - 1, y: rect.y, style: style)
        }
    }
}
