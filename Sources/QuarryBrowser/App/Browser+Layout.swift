import Quarry
import QuarryTUI

extension Browser {
    /// Whether a screen of `size` is large enough to draw the browser in.
    static func fits(_ size: TerminalSize) -> Bool {
        size.width >= minimumSize.width && size.height >= minimumSize.height
    }

    /// The rows the prompt, or the status line with its message, takes at the bottom of a
    /// screen of `size`: an error is shown whole, wrapping onto rows taken from the table,
    /// which keeps its header and at least one row.
    func bottomRows(size: TerminalSize) -> Int {
        let wanted = promptView?.height(width: size.width)
            ?? BarLine(left: "", style: .plain, message: statusMessage).height(width: size.width)
        return min(wanted, size.height - 3)
    }

    /// The layout of the state as it is on a screen of `size` whose bottom `bottomRows` rows
    /// the status line takes. Changes nothing: the column scroll and the fitted widths are
    /// computed on copies; only the visible rows are faulted in.
    ///
    /// Done as `render` did it before it was made pure, step for step: a screen wider than
    /// the one laid out for scrolls the columns back, the column cursor is kept on screen (at
    /// the widths fitted so far), then the shown columns are fitted to the visible rows.
    func makeLayout(size: TerminalSize, bottomRows: Int) -> BrowserLayout {
        var columnView = self.columnView
        var shown = shownColumns
        if size.width > screen.size.width { columnView.scrollBackAfterWidening(columns: shown, width: columnsWidth(size.width)) }
        columnView.keepCursorVisible(columns: shown, width: columnsWidth(size.width))
        let summaryRows = summary == nil ? 0 : 1
        let pageHeight = BrowserLayout.pageHeight(size: size, bottomRows: bottomRows, summaryRows: summaryRows)
        // The frequency view covers the table's area: its rows are neither read nor drawn.
        let window = frequencyView == nil ? table.window(height: pageHeight, columns: shown) : TableWindow()
        var columns = table.columns
        var fitted = window.lines
        if let summary { fitted.append(.row(cells: summary.totalCells(shown), highlight: .summary)) }
        Self.fit(&columns, to: fitted, sortKeys: table.query.userSort)
        shown = columns.filter { !$0.isHidden }
        let sortKeys = table.query.userSort
        let tableColumns = shown.map { spec -> TableColumn in
            let sorted = sortKeys.first { $0.keyPath == spec.sortKeyPath }
            return TableColumn(title: spec.title, width: spec.width, alignment: spec.alignment, sortAscending: sorted?.ascending)
        }
        return BrowserLayout(size: size, bottomRows: bottomRows, columnView: columnView, columns: columns,
                             tableColumns: tableColumns, window: window, summaryRows: summaryRows)
    }

    /// Fits each shown column's width to the rows in `lines` (and its header), unless `<`/`>`
    /// fixed it; widths only grow while the query stays, so scrolling does not shake the table.
    private static func fit(_ columns: inout [ColumnSpec], to lines: [TableLine], sortKeys: [SortKey]) {
        let rows = lines.compactMap { line -> [String]? in
            if case .row(let cells, _) = line { return cells }
            return nil
        }
        guard !rows.isEmpty else { return }
        var shown = 0
        for index in columns.indices where !columns[index].isHidden {
            let column = columns[index]
            let arrow = sortKeys.contains { $0.keyPath == column.sortKeyPath } ? 2 : 0
            let header = column.title + String(repeating: " ", count: arrow)
            columns[index].fit(to: rows.map { $0.indices.contains(shown) ? $0[shown] : "" }, header: header)
            shown += 1
        }
    }

    /// Lays the state out for the terminal's size and keeps the layout: the table's page
    /// height (for paging), the column scroll, the fitted widths and the visible rows. Run by
    /// ``prepareFrame(size:)`` after an event (``handle(_:)``) or a change made outside one
    /// (``needsDisplay()``).
    func layout() {
        screen.needsLayout = false
        guard Self.fits(screen.size) else { return }
        followEditedRow()
        refreshSummaryIfStale()
        let layout = makeLayout(size: screen.size, bottomRows: bottomRows(size: screen.size))
        columnView = layout.columnView
        table.columns = layout.columns
        table.pageHeight = layout.pageHeight
        table.hold(layout.window)
        frequencyView?.pageHeight = max(1, layout.tableRect.height - 1)
        screen.layout = layout
    }

    /// Lays out again when the kept layout is not the state's: an event came, something changed
    /// outside one, or the status line's message now takes another number of rows.
    func layoutIfNeeded() {
        guard Self.fits(screen.size) else { return }
        if screen.needsLayout || screen.layout?.bottomRows != bottomRows(size: screen.size) { layout() }
    }

    /// The kept layout, when it is the state's on a screen of `size` whose bottom `bottomRows`
    /// rows the status line takes.
    func currentLayout(size: TerminalSize, bottomRows: Int) -> BrowserLayout? {
        guard !screen.needsLayout, let layout = screen.layout, layout.size == size, layout.bottomRows == bottomRows else { return nil }
        return layout
    }

    /// Something changed outside an event (a live merge, a query landing, an export's
    /// progress, the importer's state): the next frame lays out again, and the app is asked
    /// for one.
    func needsDisplay() {
        screen.needsLayout = true
        live.onNeedsDisplay?()
    }

    /// Makes the state ready for a frame at `size`, before ``render(size:)``: a size the
    /// terminal changed to without a resize event is adopted as if one came, and what changed
    /// since the last layout (events, live merges, queries landing) is laid out, once. The app
    /// calls it before each frame.
    ///
    /// ```swift
    /// browser.prepareFrame(size: backend.size)
    /// backend.present(browser.render(size: backend.size))
    /// ```
    public func prepareFrame(size: TerminalSize) {
        if size != screen.size { handle(.resize(size)) }
        layoutIfNeeded()
    }
}
