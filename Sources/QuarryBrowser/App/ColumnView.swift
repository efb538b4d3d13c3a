import QuarryTUI

/// The table's horizontal view: which column the cursor is on, the first scrollable column
/// shown, and whether the first column stays while scrolling right.
///
/// A value: the scroll rules are pure functions of it, the shown columns and the screen's
/// width, so a layout can compute them on a copy and the browser keeps the result.
struct ColumnView: Equatable {
    /// The column cursor, an index into the shown columns.
    var cursor = 0
    /// The first scrollable column shown.
    var firstColumn = 0
    /// Whether the first column stays while scrolling right.
    var freezesFirstColumn = false

    /// Scrolls so the column cursor is on screen at `width`, as little as needed (moving the
    /// cursor left within the columns shown does not scroll); clamps the cursor to `columns`.
    mutating func keepCursorVisible(columns: [ColumnSpec], width: Int) {
        cursor = min(cursor, max(0, columns.count - 1))
        let frozen = freezesFirstColumn ? 1 : 0
        if cursor < frozen { return }
        if cursor < firstColumn { firstColumn = cursor }
        while firstColumn < cursor, !showsCursorWhole(firstColumn: firstColumn, columns: columns, width: width) {
            firstColumn += 1
        }
    }

    /// After the terminal widened to `width`, scrolls back left as far as the column cursor
    /// stays whole on screen, so the room gained shows the columns before it rather than blank
    /// space past the last column.
    mutating func scrollBackAfterWidening(columns: [ColumnSpec], width: Int) {
        guard columns.indices.contains(cursor) else { return }
        let leftmost = freezesFirstColumn ? 1 : 0
        while firstColumn > leftmost, showsCursorWhole(firstColumn: firstColumn - 1, columns: columns, width: width) {
            firstColumn -= 1
        }
    }

    /// The index among `columns` of the column drawn at `x` on a screen `width` wide.
    func column(atX x: Int, columns: [ColumnSpec], width: Int) -> Int? {
        let view = TableView(columns: columns.map { TableColumn(title: $0.title, width: $0.width) }, lines: [],
                             firstColumn: firstColumn, freezesFirstColumn: freezesFirstColumn, lastColumnFills: true)
        return view.column(atX: x, width: width)
    }

    /// Whether the cursor's column is drawn whole (it and every column before it fit in
    /// `width`) when the first scrollable column shown is `first`.
    private func showsCursorWhole(firstColumn first: Int, columns: [ColumnSpec], width: Int) -> Bool {
        let view = TableView(columns: columns.map { TableColumn(title: $0.title, width: $0.width) }, lines: [],
                             firstColumn: first, freezesFirstColumn: freezesFirstColumn)
        let visible = view.visibleColumns(width: width)
        var used = 0
        for index in visible {
            used += columns[index].width + 1
            if index == cursor { break }
        }
        return visible.contains(cursor) && used <= width
    }
}
