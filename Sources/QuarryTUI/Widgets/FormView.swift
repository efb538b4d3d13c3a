/// One field of a ``FormView``.
public struct FormField: Hashable, Sendable {
    /// The field's label (attribute name).
    public var label: String
    /// The text being edited.
    public var text: String
    /// A hint after the label (the type, "required", a range).
    public var hint: String
    /// A validation message shown under the field, if any.
    public var error: String?
    /// Whether the text differs from the stored value.
    public var isModified: Bool
    /// Whether the field can be edited.
    public var isEditable: Bool

    /// Creates a field.
    public init(label: String, text: String, hint: String = "", error: String? = nil, isModified: Bool = false, isEditable: Bool = true) {
        self.label = label
        self.text = text
        self.hint = hint
        self.error = error
        self.isModified = isModified
        self.isEditable = isEditable
    }
}

/// A boxed edit form: one line per field, validation messages inline, the caret in the focused field.
public struct FormView: Sendable {
    /// The box title.
    public var title: String
    /// The fields.
    public var fields: [FormField]
    /// The focused field.
    public var focus: Int
    /// The caret's position in the focused field's text, in characters.
    public var caret: Int
    /// A message under the fields (a conflict notice, a save error).
    public var message: String?
    /// The key hints in the bottom border.
    public var footer: String

    /// Creates a form.
    public init(title: String, fields: [FormField], focus: Int = 0, caret: Int = 0, message: String? = nil,
                footer: String = "Tab/↑↓ field · Ctrl-S save · Esc discard") {
        self.title = title
        self.fields = fields
        self.focus = focus
        self.caret = caret
        self.message = message
        self.footer = footer
    }

    /// Draws the form centred in `area`.
    public func render(into buffer: inout ScreenBuffer, area: Rect, theme: Theme) {
        let errorLines = fields.filter { $0.error != nil }.count
        let height = fields.count + errorLines + 4 + (message == nil ? 0 : 1)
        let rect = Box.centered(width: max(50, min(area.width - 4, 90)), height: height, in: area)
        let inner = Box(title: title, style: theme[.help]).render(into: &buffer, rect: rect)
        guard !inner.isEmpty else { return }
        let labelWidth = min((fields.map { DisplayWidth.of($0.label) }.max() ?? 0) + 2, inner.width / 3)
        var y = inner.y
        let lastRow = inner.maxY - 2
        let firstVisible = max(0, focus - max(1, lastRow - inner.y))
        for (index, field) in fields.enumerated() where index >= firstVisible {
            guard y <= lastRow else { break }
            let labelStyle = field.isModified ? theme[.pendingEdit] : theme[.help]
            buffer.write(DisplayWidth.fit((field.isModified ? "✎" : " ") + field.label, toWidth: labelWidth), x: inner.x, y: y, style: labelStyle)
            let fieldX = inner.x + labelWidth + 1
            let hintWidth = min(DisplayWidth.of(field.hint), max(0, inner.maxX - fieldX - 12))
            let fieldWidth = max(1, inner.maxX - fieldX - hintWidth - 2)
            var fieldStyle = theme[.row]
            if !field.isEditable { fieldStyle = fieldStyle.adding(.dim) }
            if index == focus { fieldStyle = fieldStyle.adding(.underline) }
            buffer.fill(Rect(x: fieldX, y: y, width: fieldWidth, height: 1), style: fieldStyle)
            let (visible, caretColumn) = Self.window(of: field.text, caret: index == focus ? caret : 0, width: fieldWidth)
            buffer.write(visible, x: fieldX, y: y, style: fieldStyle, maxWidth: fieldWidth)
            if index == focus {
                buffer.restyle(Rect(x: fieldX + caretColumn, y: y, width: 1, height: 1)) { $0.attributes.formSymmetricDifference(.reverse) }
            }
            if hintWidth > 0 {
                buffer.write(DisplayWidth.truncate(field.hint, toWidth: hintWidth), x: inner.maxX - hintWidth, y: y, style: theme[.help].adding(.dim))
            }
            y += 1
            if let error = field.error, y <= lastRow {
                buffer.write("  ✗ " + error, x: fieldX, y: y, style: theme[.error], maxWidth: inner.maxX - fieldX)
                y += 1
            }
        }
        if let message {
            buffer.write(message, x: inner.x + 1, y: inner.maxY - 2, style: theme[.error], maxWidth: inner.width - 2)
        }
        buffer.write(DisplayWidth.truncate(footer, toWidth: inner.width - 2), x: inner.x + 1, y: inner.maxY - 1, style: theme[.help].adding(.dim))
    }

    /// The part of `text` to show in `width` cells so the caret is visible, and the caret's column.
    ///
    /// One pass over the text (the caret is clamped to it), so a long field costs O(n), never O(n²).
    public static func window(of text: String, caret: Int, width: Int) -> (String, Int) {
        var editable = EditableText(text)
        editable.moveCaret(to: caret)
        let window = editable.window(width: width)
        return (window.visible, window.caretColumn)
    }
}
