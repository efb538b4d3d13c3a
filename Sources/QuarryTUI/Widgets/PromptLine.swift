/// A one-line text prompt at the bottom of the screen (filter, search), with the caret and, on
/// the rows above it, an error with a marker under the column at fault.
///
/// Only the part of the text around the caret is drawn (see ``EditableText/window(width:)``),
/// so a long text costs no more per frame than a short one; the error marker is placed relative
/// to that window, so scrolling the caret to an error's column shows both.
public struct PromptLine: Sendable {
    /// The prompt (`filter: `, `/`).
    public var prompt: String
    /// The text typed so far, with its caret.
    public var text: EditableText
    /// An error and the 1-based column of `text` it points at, if any.
    public var error: (message: String, column: Int?)?

    /// Creates a prompt.
    public init(prompt: String, text: EditableText, error: (message: String, column: Int?)? = nil) {
        self.prompt = prompt
        self.text = text
        self.error = error
    }

    /// Rows needed in a rect `width` cells wide: one for the text, and when an error is shown
    /// the rows it takes: one when the message fits beside its `^` marker, else one per line of
    /// the message wrapped to the width (the marker on the last when it fits there), so the
    /// message is shown whole at any width.
    public func height(width: Int) -> Int { 1 + errorRows(width: width).count }

    /// Draws the prompt into the bottom ``height(width:)`` rows of `rect` (the error's first
    /// rows are left out when `rect` is shorter).
    public func render(into buffer: inout ScreenBuffer, rect: Rect, theme: Theme) {
        guard rect.height > 0 else { return }
        let rows = errorRows(width: rect.width).suffix(rect.height - 1)
        var y = rect.maxY - 1 - rows.count
        for row in rows {
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: theme[.status])
            buffer.write(row.text, x: rect.x + row.x, y: y, style: theme[.error], maxWidth: rect.width - row.x)
            y += 1
        }
        let (promptWidth, window) = layout(width: rect.width)
        buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: theme[.status])
        let used = buffer.write(prompt, x: rect.x, y: y, style: theme[.status].adding(.bold), maxWidth: promptWidth)
        buffer.write(window.visible, x: rect.x + used, y: y, style: theme[.status])
        buffer.restyle(Rect(x: rect.x + used + window.caretColumn, y: y, width: 1, height: 1)) { $0.attributes.formSymmetricDifference(.reverse) }
    }

    /// The prompt's width and the part of the text shown in a row `width` cells wide.
    private func layout(width: Int) -> (promptWidth: Int, window: (visible: String, caretColumn: Int, start: Int)) {
        let promptWidth = min(DisplayWidth.of(prompt), max(0, width - 2))
        return (promptWidth, text.window(width: max(1, width - promptWidth - 1)))
    }

    /// The error's rows, top first: each a text and the column (from the left edge) it starts at.
    private func errorRows(width: Int) -> [(text: String, x: Int)] {
        guard let error else { return [] }
        let (promptWidth, window) = layout(width: width)
        // The marker's column, when the column at fault is in the part of the text shown.
        var markerX: Int?
        if let offset = error.column.map({ $0 - 1 - window.start }), (0...window.visible.count).contains(offset) {
            markerX = promptWidth + DisplayWidth.of(String(window.visible.prefix(offset)))
        }
        let messageWidth = DisplayWidth.of(error.message)
        guard let markerX else {
            return DisplayWidth.wrap(error.message, toWidth: width).map { ($0, 0) }
        }
        // On one row: `^ message` right of the column, else `message ^` left of it.
        if markerX + 2 + messageWidth <= width { return [("^ " + error.message, markerX)] }
        if messageWidth + 1 <= markerX { return [(error.message + " ^", markerX - messageWidth - 1)] }
        // Wrapped over the whole width, the marker after the last line when it fits there.
        var rows = DisplayWidth.wrap(error.message, toWidth: width).map { (text: $0, x: 0) }
        if let last = rows.last, DisplayWidth.of(last.text) + 1 <= markerX, markerX < width {
            rows[rows.count - 1].text = last.text + String(repeating: " ", count: markerX - DisplayWidth.of(last.text)) + "^"
        } else {
            rows.append(("^", min(markerX, max(0, width - 1))))
        }
        return rows
    }
}
