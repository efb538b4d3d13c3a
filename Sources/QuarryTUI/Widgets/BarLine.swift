/// A bar with text on the left and on the right: the title bar and the status line.
///
/// When both do not fit, the right part is cut first, then the left. A message (an error, the
/// importer's state) has priority over both: it is always shown whole, at any width. When it
/// fits the bar's row, the left text is shortened (with `…`) to make room; when it does not,
/// it wraps onto rows above the bar (``height(width:maximumRows:)`` says how many the bar
/// needs), its last line sharing the bar's row.
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

    /// The rows the bar needs in a rect `width` cells wide to show its message whole: one, or
    /// one per line of the wrapped message; at most `maximumRows` (and at least one).
    public func height(width: Int, maximumRows: Int = .max) -> Int {
        max(1, min(messageLines(width: width).count, maximumRows))
    }

    /// Draws the bar into `rect`: the message's first lines on the rows above the last when it
    /// needs them (see ``height(width:maximumRows:)``), the bar itself on the last row. When
    /// `rect` is too short for the whole message, its last row shown ends with `…`.
    public func render(into buffer: inout ScreenBuffer, rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        var lines = messageLines(width: rect.width)
        if lines.count > rect.height {
            let kept = rect.height - 1
            let rest = lines[kept...].joined(separator: " ")
            lines = Array(lines[..<kept]) + [DisplayWidth.truncate(rest, toWidth: max(1, rect.width - 1))]
        }
        let barRow = rect.y + min(rect.height, lines.count) - 1
        if let message {
            for (offset, line) in lines.dropLast().enumerated() {
                buffer.fill(rect.row(offset), style: style)
                buffer.write(line, x: rect.x + 1, y: rect.y + offset, style: message.style, maxWidth: rect.width - 1)
            }
            renderBar(into: &buffer, rect: Rect(x: rect.x, y: barRow, width: rect.width, height: 1),
                      message: (lines.last ?? message.text, message.style))
        } else {
            renderBar(into: &buffer, rect: Rect(x: rect.x, y: barRow, width: rect.width, height: 1), message: nil)
        }
    }

    /// The message broken into the lines shown (one empty line without a message).
    private func messageLines(width: Int) -> [String] {
        guard let message else { return [""] }
        return DisplayWidth.wrap(message.text, toWidth: max(1, width - 1))
    }

    /// Draws the one-row bar with `message` (which fits the row).
    private func renderBar(into buffer: inout ScreenBuffer, rect: Rect, message: (text: String, style: CellStyle)?) {
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
