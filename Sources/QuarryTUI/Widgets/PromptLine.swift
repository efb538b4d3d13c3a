/// A one-line text prompt at the bottom of the screen (filter, search), with the caret and an
/// error marker under the column at fault.
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

    /// Rows needed: one, or two when an error is shown.
    public var height: Int { error == nil ? 1 : 2 }

    /// Draws the prompt into the top `height` rows of `rect`.
    public func render(into buffer: inout ScreenBuffer, rect: Rect, theme: Theme) {
        guard rect.height > 0 else { return }
        var y = rect.y
        let promptWidth = min(DisplayWidth.of(prompt), max(0, rect.width - 2))
        let window = text.window(width: max(1, rect.width - promptWidth - 1))
        if let error, rect.height > 1 {
            buffer.fill(rect.row(0), style: theme[.status])
            let offset = error.column.map { $0 - 1 - window.start }
            if let offset, (0...window.visible.count).contains(offset) {
                let x = rect.x + promptWidth + DisplayWidth.of(String(window.visible.prefix(offset)))
                let label = "^ " + error.message
                if x + DisplayWidth.of(label) <= rect.maxX {
                    buffer.write(label, x: x, y: y, style: theme[.error], maxWidth: rect.maxX - x)
                } else {
                    let message = DisplayWidth.truncate(error.message, toWidth: max(1, x - rect.x - 1))
                    buffer.write(message + " ^", x: max(rect.x, x - DisplayWidth.of(message) - 1), y: y, style: theme[.error], maxWidth: rect.maxX)
                }
            } else {
                buffer.write(error.message, x: rect.x, y: y, style: theme[.error], maxWidth: rect.width)
            }
            y += 1
        }
        buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: theme[.status])
        let used = buffer.write(prompt, x: rect.x, y: y, style: theme[.status].adding(.bold), maxWidth: promptWidth)
        buffer.write(window.visible, x: rect.x + used, y: y, style: theme[.status])
        buffer.restyle(Rect(x: rect.x + used + window.caretColumn, y: y, width: 1, height: 1)) { $0.attributes.formSymmetricDifference(.reverse) }
    }
}
