/// A column of a ``TableView``.
public struct TableColumn: Hashable, Sendable {
    /// The header text.
    public var title: String
    /// Width in cells (at least 1).
    public var width: Int
    /// Numbers sit right, text left.
    public var alignment: TextAlignment
    /// Shown as ▲/▼ after the title when the table is sorted by this column.
    public var sortAscending: Bool?

    /// Creates a column.
    public init(title: String, width: Int, alignment: TextAlignment = .leading, sortAscending: Bool? = nil) {
        self.title = title
        self.width = max(1, width)
        self.alignment = alignment
        self.sortAscending = sortAscending
    }

    /// The header text with the sort arrow.
    public var header: String {
        switch sortAscending {
        case true?: return title + " ▲"
        case false?: return title + " ▼"
        case nil: return title
        }
    }
}

/// One line of a table's visible window.
public enum TableLine: Hashable, Sendable {
    /// A section header: its name, how many rows it holds, its highlight (the cursor rests on
    /// a collapsed section's header) and whether its rows are hidden.
    case section(title: String, count: Int, highlight: RowHighlight = [], isCollapsed: Bool = false)
    /// A row: one text per column and how it is highlighted.
    case row(cells: [String], highlight: RowHighlight)
}

/// How a row is highlighted, strongest first: cursor, flash, pending edit, alternate.
public struct RowHighlight: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a highlight from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The row under the cursor.
    public static let cursor = RowHighlight(rawValue: 1)
    /// Every other row.
    public static let alternate = RowHighlight(rawValue: 2)
    /// Updated by the live merge a moment ago.
    public static let flash = RowHighlight(rawValue: 4)
    /// Has unsaved edits.
    public static let pending = RowHighlight(rawValue: 8)
    /// Selected (marked in the gutter when the table has one).
    public static let selected = RowHighlight(rawValue: 16)
    /// A summary line (totals under the rows or a section header): drawn like a section
    /// header, every cell from its left.
    public static let summary = RowHighlight(rawValue: 32)
}

/// A table: a header row, then section headers and rows, scrolled horizontally by column with an
/// optionally frozen first column.
///
/// The table draws only the lines it is given (the visible window); the browser decides which
/// lines those are, so a million-row table costs what its screen costs.
public struct TableView: Sendable {
    /// All columns, hidden ones already removed.
    public var columns: [TableColumn]
    /// The visible lines, top first.
    public var lines: [TableLine]
    /// The first scrollable column shown (horizontal scroll).
    public var firstColumn: Int
    /// Whether column 0 stays put while scrolling right.
    public var freezesFirstColumn: Bool
    /// The column under the column cursor (its header is underlined), if any.
    public var selectedColumn: Int?
    /// Whether the last column, when it is drawn, takes the width left over to the right
    /// edge (for drawing and for ``column(atX:width:)``).
    public var lastColumnFills = false
    /// Whether a gutter of ``gutterWidth`` cells on the left marks selected rows (`*`).
    public var marksSelection = false

    /// Cells drawn as changed (in the theme's flash style; underlined on the cursor's row):
    /// per index into ``lines``, the column indices. The browser's `:since` marks.
    public var markedCells: [Int: Set<Int>] = [:]

    /// The gutter's width when ``marksSelection``: the mark and a space.
    public static let gutterWidth = 2

    /// Creates a table.
    public init(columns: [TableColumn], lines: [TableLine], firstColumn: Int = 0, freezesFirstColumn: Bool = false,
                selectedColumn: Int? = nil, lastColumnFills: Bool = false) {
        self.columns = columns
        self.lines = lines
        self.firstColumn = firstColumn
        self.freezesFirstColumn = freezesFirstColumn
        self.selectedColumn = selectedColumn
        self.lastColumnFills = lastColumnFills
    }

    /// The width column `index` is drawn at: its own, or with ``lastColumnFills`` the rest of
    /// a table `width` cells wide when it is the last column and starts at `left`.
    private func drawnWidth(of index: Int, left: Int, width: Int) -> Int {
        lastColumnFills && index == columns.count - 1 ? max(columns[index].width, width - left) : columns[index].width
    }

    /// The indices of the columns drawn, left to right, for a table `width` cells wide.
    public func visibleColumns(width: Int) -> [Int] {
        var result: [Int] = []
        var used = 0
        if freezesFirstColumn, !columns.isEmpty {
            result.append(0)
            used = columns[0].width + 1
        }
        var index = freezesFirstColumn ? max(1, firstColumn) : max(0, firstColumn)
        while index < columns.count, used < width {
            result.append(index)
            used += columns[index].width + 1
            index += 1
        }
        return result
    }

    /// Draws the header into the first row of `rect` and the lines below it.
    public func render(into buffer: inout ScreenBuffer, rect outer: Rect, theme: Theme) {
        guard outer.height > 0, outer.width > 0 else { return }
        let gutter = marksSelection ? min(Self.gutterWidth, outer.width) : 0
        if gutter > 0 {
            buffer.fill(Rect(x: outer.x, y: outer.y, width: gutter, height: outer.height), style: theme[.row])
            buffer.fill(Rect(x: outer.x, y: outer.y, width: gutter, height: 1), style: theme[.header])
            for (offset, line) in lines.prefix(outer.height - 1).enumerated() {
                guard case .row(_, let highlight) = line else { continue }
                let style = Self.style(for: highlight, theme: theme)
                buffer.write(highlight.contains(.selected) ? "* " : "  ", x: outer.x, y: outer.y + 1 + offset, style: style, maxWidth: gutter)
            }
        }
        let rect = Rect(x: outer.x + gutter, y: outer.y, width: outer.width - gutter, height: outer.height)
        guard rect.width > 0 else { return }
        let shown = visibleColumns(width: rect.width)
        drawCells(shown.map { (columns[$0].header, $0) }, row: rect.y, rect: rect, base: theme[.header], header: true)
        for (offset, line) in lines.prefix(rect.height - 1).enumerated() {
            let y = rect.y + 1 + offset
            switch line {
            case .section(let title, let count, let highlight, let isCollapsed):
                let style = highlight.contains(.cursor) ? theme[.cursor] : theme[.section]
                buffer.fill(rect.row(1 + offset), style: style)
                let text = "▸ \(title) (\(count))" + (isCollapsed ? " · collapsed" : "")
                buffer.write(text, x: rect.x, y: y, style: style, maxWidth: rect.width)
            case .row(let cells, let highlight):
                let style = Self.style(for: highlight, theme: theme)
                drawCells(shown.map { (cells.indices.contains($0) ? cells[$0] : "", $0) }, row: y, rect: rect, base: style, header: false,
                          leading: highlight.contains(.summary),
                          marked: markedCells[offset], markedStyle: highlight.contains(.cursor) ? style.adding(.underline) : theme[.updatedFlash])
            }
        }
        buffer.fill(Rect(x: rect.x, y: rect.y + 1 + min(lines.count, rect.height - 1), width: rect.width,
                         height: rect.height - 1 - min(lines.count, rect.height - 1)), style: theme[.row])

        func drawCells(_ texts: [(String, Int)], row y: Int, rect: Rect, base: CellStyle, header: Bool, leading: Bool = false,
                       marked: Set<Int>? = nil, markedStyle: CellStyle = CellStyle()) {
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: base)
            var x = rect.x
            for (text, index) in texts where x < rect.maxX {
                let column = columns[index]
                var style = base
                if header, index == selectedColumn { style = style.adding(.underline) }
                if let marked, marked.contains(index) { style = markedStyle }
                let alignment = header || leading ? .leading : column.alignment
                let width = min(drawnWidth(of: index, left: x - rect.x, width: rect.width), rect.maxX - x)
                // A number too wide is cut on its left, so its end (the digits that tell 953.25
                // from 953.75) stays: `…53.25`, never `953.…`.
                let shown = !header && alignment == .trailing && DisplayWidth.of(text) > width
                    ? DisplayWidth.truncateLeading(text, toWidth: width) : text
                buffer.write(DisplayWidth.fit(shown, toWidth: width, alignment: alignment), x: x, y: y, style: style, maxWidth: width)
                x += column.width + 1
            }
        }
    }

    /// The index of the column drawn at `x` (0-based, from the table's left edge) in a table
    /// `width` cells wide, or `nil` past the last column or on a separator's right edge.
    public func column(atX outerX: Int, width outerWidth: Int) -> Int? {
        let gutter = marksSelection ? Self.gutterWidth : 0
        let x = outerX - gutter, width = outerWidth - gutter
        guard x >= 0 else { return nil }
        var left = 0
        for index in visibleColumns(width: width) {
            let right = left + drawnWidth(of: index, left: left, width: width)
            if x >= left && x <= right { return index }  // the separator after a column belongs to it
            left = right + 1
        }
        return nil
    }

    /// The theme style for a row with `highlight`.
    public static func style(for highlight: RowHighlight, theme: Theme) -> CellStyle {
        if highlight.contains(.cursor) { return theme[.cursor] }
        if highlight.contains(.summary) { return theme[.section] }
        if highlight.contains(.flash) { return theme[.updatedFlash] }
        if highlight.contains(.pending) { return theme[.pendingEdit] }
        if highlight.contains(.alternate) { return theme[.alternateRow] }
        return theme[.row]
    }
}
