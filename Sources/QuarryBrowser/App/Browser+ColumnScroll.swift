import QuarryTUI

extension Browser {
    /// Takes `size` as the terminal's. A wider terminal than before scrolls the columns back
    /// (``scrollColumnsBackAfterWidening()``): the scroll was chosen for the narrower one.
    func adoptSize(_ size: TerminalSize) {
        let widened = size.width > lastSize.width
        lastSize = size
        if widened { scrollColumnsBackAfterWidening() }
    }

    /// Scrolls horizontally so the column cursor is on screen, as little as needed (moving the
    /// cursor left within the columns shown does not scroll).
    func keepColumnCursorVisible() {
        let columns = shownColumns
        columnCursor = min(columnCursor, max(0, columns.count - 1))
        let frozen = freezesFirstColumn ? 1 : 0
        if columnCursor < frozen { return }
        if columnCursor < firstColumn { firstColumn = columnCursor }
        while firstColumn < columnCursor, !showsColumnCursorWhole(firstColumn: firstColumn, columns: columns) {
            firstColumn += 1
        }
    }

    /// After the terminal widened, scrolls back left as far as the column cursor stays whole
    /// on screen, so the room gained shows the columns before it rather than blank space past
    /// the last column.
    func scrollColumnsBackAfterWidening() {
        let columns = shownColumns
        guard columns.indices.contains(columnCursor) else { return }
        let leftmost = freezesFirstColumn ? 1 : 0
        while firstColumn > leftmost, showsColumnCursorWhole(firstColumn: firstColumn - 1, columns: columns) {
            firstColumn -= 1
        }
    }

    /// Whether the column cursor's column is drawn whole (it and every column before it fit)
    /// when the first scrollable column shown is `first`.
    private func showsColumnCursorWhole(firstColumn first: Int, columns: [ColumnSpec]) -> Bool {
        let view = TableView(columns: columns.map { TableColumn(title: $0.title, width: $0.width) }, lines: [],
                             firstColumn: first, freezesFirstColumn: freezesFirstColumn)
        let visible = view.visibleColumns(width: lastSize.width)
        var used = 0
        for index in visible {
            used += columns[index].width + 1
            if index == columnCursor { break }
        }
        return visible.contains(columnCursor) && used <= lastSize.width
    }
}
