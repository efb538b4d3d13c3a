/// A one-line text prompt at the bottom of the screen (filter, search), with the caret and an
/// error marker under the column at fault.
public struct PromptLine: Sendable {
    /// The prompt (`filter: `, `/`).
    public var prompt: String
    /// The text typed so far.
    public var text: String
    /// The caret position in characters.
    public var caret: Int
    /// An error and the 1-based column of `text` it points at, if any.
    public var error: (message: String, column: Int?)?

    /// Creates a prompt.
    public init(prompt: String, text: String, caret: Int, error: (message: String, column: Int?)? = nil) {
        self.prompt = prompt
        self.text = text
        self.caret = caret
        self.error = error
    }

    /// Rows needed: one, or two when an error is shown.
    public var height: Int { error == nil ? 1 : 2 }

    /// Draws the prompt into the top `height` rows of `rect`.
    public func render(into buffer: inout ScreenBuffer, rect: Rect, theme: Theme) {
        guard rect.height > 0 else { return }
        var y = rect.y
        if let error, rect.height > 1 {
            buffer.fill(rect.row(0), style: theme[.status])
            let promptWidth = DisplayWidth.of(prompt)
            if let column = error.column {
                let x = rect.x + promptWidth + DisplayWidth.of(String(text.prefix(max(0, column - 1))))
                let label = "^ " + error.message
                if x + DisplayWidth.of(label) <= rect.maxX {
                    buffer.write(label, x: x, y: y, style: theme[.error])
                } else {
                    buffer.write(error.message + " ^", x: max(rect.x, x - DisplayWidth.of(error.message) - 1), y: y, style: theme[.error], maxWidth: rect.maxX)
                }
            } else {
                buffer.write(error.message, x: rect.x, y: y, style: theme[.error], maxWidth: rect.width)
            }
            y += 1
        }
        buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: theme[.status])
        let used = buffer.write(prompt, x: rect.x, y: y, style: theme[.status].adding(.bold))
        let (visible, caretColumn) = FormView.window(of: text, caret: caret, width: max(1, rect.width - used - 1))
        buffer.write(visible, x: rect.x + used, y: y, style: theme[.status])
        buffer.restyle(Rect(x: rect.x + used + caretColumn, y: y, width: 1, height: 1)) { $0.attributes.formSymmetricDifference(.reverse) }
    }
}
