/// An in-memory grid of cells: everything the UI draws goes here first.
///
/// Widgets and the pure render function write into a buffer; a backend compares it with the last
/// frame and sends only the cells that differ. Tests read it back with ``line(_:)``.
public struct ScreenBuffer: Hashable, Sendable {
    /// The buffer's size.
    public private(set) var size: TerminalSize
    /// Cells row by row.
    public private(set) var cells: [Cell]

    /// A buffer of `size` filled with blank cells in `style`.
    public init(size: TerminalSize, style: CellStyle = .plain) {
        self.size = TerminalSize(width: max(0, size.width), height: max(0, size.height))
        self.cells = Array(repeating: Cell(" ", style: style), count: self.size.width * self.size.height)
    }

    /// The whole buffer as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The cell at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set { cells[y * size.width + x] = newValue }
    }

    /// Fills `rect` (clipped to the buffer) with blanks in `style`.
    public mutating func fill(_ rect: Rect, style: CellStyle) {
        let clipped = clip(rect)
        guard !clipped.isEmpty else { return }
        let blank = Cell(" ", style: style)
        for y in clipped.y..<clipped.maxY {
            let start = y * size.width
            for x in clipped.x..<clipped.maxX { cells[start + x] = blank }
        }
    }

    /// Applies `change` to the style of every cell in `rect` (clipped), keeping the text.
    public mutating func restyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
        let clipped = clip(rect)
        guard !clipped.isEmpty else { return }
        for y in clipped.y..<clipped.maxY {
            for x in clipped.x..<clipped.maxX { change(&cells[y * size.width + x].style) }
        }
    }

    /// Writes `text` at (`x`, `y`) in `style`, using at most `maxWidth` cells (and never past the
    /// right edge). Returns the cells used.
    ///
    /// A wide character that does not fit entirely is replaced by a blank; control characters
    /// (C0, DEL, C1, ESC) are shown escaped (`^[`, `\x9b`, see ``ControlEscaping``) so stored
    /// text can never move the cursor or start an escape sequence.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle, maxWidth: Int = .max) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let text = ControlEscaping.escaped(text)
        let limit = min(size.width, x &+ max(0, maxWidth) < x ? Int.max : x + max(0, maxWidth))
        var column = x
        for character in text {
            if column >= limit { break }
            var glyph = String(character)
            var width = DisplayWidth.of(character)
            if width == 0 {
                if character.isASCII || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                    glyph = "?"
                    width = 1
                } else {
                    continue  // a lone zero-width scalar: nothing to draw
                }
            }
            if column + width > limit {
                if column >= 0 { self[column, y] = Cell(" ", style: style) }
                column += 1
                break
            }
            if column >= 0 {
                self[column, y] = Cell(glyph, style: style)
                if width == 2 { self[column + 1, y] = .continuation(style: style) }
            }
            column += width
        }
        return max(0, column - x)
    }

    /// The text of row `y`, continuation cells skipped (for tests and captures).
    public func line(_ y: Int) -> String {
        var result = ""
        for x in 0..<size.width where !self[x, y].isContinuation { result += self[x, y].text }
        return result
    }

    /// Every row's text, trailing blanks trimmed.
    public var lines: [String] {
        (0..<size.height).map { y in
            var text = line(y)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// The whole screen as text, one row a line.
    public var text: String { lines.joined(separator: "\n") }

    private func clip(_ rect: Rect) -> Rect {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
