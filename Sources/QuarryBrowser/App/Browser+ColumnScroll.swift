import QuarryTUI

extension Browser {
    /// Takes `size` as the terminal's. A wider terminal than before scrolls the columns back
    /// (``ColumnView/scrollBackAfterWidening(columns:width:)``): the scroll was chosen for the
    /// narrower one.
    func adoptSize(_ size: TerminalSize) {
        let widened = size.width > screen.size.width
        screen.size = size
        if widened { columnView.scrollBackAfterWidening(columns: shownColumns, width: columnsWidth(size.width)) }
    }

    /// Scrolls horizontally so the column cursor is on screen, as little as needed.
    func keepColumnCursorVisible() {
        columnView.keepCursorVisible(columns: shownColumns, width: columnsWidth(screen.size.width))
    }
}
