/// One character cell of the screen.
///
/// A wide character (CJK, most emoji) occupies two cells: the first holds the character, the
/// second is a ``isContinuation`` cell that draws nothing of its own.
public struct Cell: Hashable, Sendable {
    /// The grapheme drawn in this cell (a single space for an empty cell, empty for a continuation).
    public var text: String
    /// The cell's style.
    public var style: CellStyle

    /// Creates a cell holding `text` (one grapheme) in `style`.
    public init(_ text: String = " ", style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// The right half of a wide character: the terminal draws nothing here.
    public static func continuation(style: CellStyle) -> Cell { Cell("", style: style) }

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { text.isEmpty }
}
