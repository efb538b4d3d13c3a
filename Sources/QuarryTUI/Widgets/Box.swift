/// A bordered box with an optional title, the frame of every overlay (help, form, detail, dialogs).
public struct Box: Sendable {
    /// The title drawn into the top border.
    public var title: String
    /// The style of the border and the inside.
    public var style: CellStyle

    /// Creates a box.
    public init(title: String = "", style: CellStyle) {
        self.title = title
        self.style = style
    }

    /// Draws the box into `rect` (clipped) and returns the inner rectangle.
    @discardableResult
    public func render(into buffer: inout ScreenBuffer, rect: Rect) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        buffer.fill(rect, style: style)
        let horizontal = String(repeating: "─", count: rect.width - 2)
        buffer.write("┌" + horizontal + "┐", x: rect.x, y: rect.y, style: style)
        buffer.write("└" + horizontal + "┘", x: rect.x, y: rect.maxY - 1, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer.write("│", x: rect.x, y: y, style: style)
            buffer.write("│", x: rect.maxX - 1, y: y, style: style)
        }
        if !title.isEmpty, rect.width > 6 {
            let text = " " + DisplayWidth.truncate(title, toWidth: rect.width - 6) + " "
            buffer.write(text, x: rect.x + 2, y: rect.y, style: style.adding(.bold))
        }
        return rect.inset(by: 1)
    }

    /// A rectangle of at most `width` × `height` centred in `area`.
    public static func centered(width: Int, height: Int, in area: Rect) -> Rect {
        let w = min(width, area.width), h = min(height, area.height)
        return Rect(x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h)
    }
}
