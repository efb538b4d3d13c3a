/// A small centred box with a few lines of text: confirmations ("Delete 3 objects? y/n") and notices.
public struct MessageBox: Sendable {
    /// The box title.
    public var title: String
    /// The lines of text.
    public var lines: [String]
    /// Whether the box is an error.
    public var isError: Bool

    /// Creates a message box.
    public init(title: String, lines: [String], isError: Bool = false) {
        self.title = title
        self.lines = lines
        self.isError = isError
    }

    /// Draws the box centred in `area`.
    public func render(into buffer: inout ScreenBuffer, area: Rect, theme: Theme) {
        let width = max(DisplayWidth.of(title) + 8, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        let rect = Box.centered(width: width, height: lines.count + 2, in: area)
        let style = isError ? theme[.error] : theme[.help]
        let inner = Box(title: title, style: style).render(into: &buffer, rect: rect)
        for (offset, line) in lines.prefix(inner.height).enumerated() {
            buffer.write(line, x: inner.x + 1, y: inner.y + offset, style: style, maxWidth: inner.width - 1)
        }
    }
}
