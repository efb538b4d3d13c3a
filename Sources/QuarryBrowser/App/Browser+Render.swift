import Quarry
import QuarryTUI

extension Browser {
    /// The smallest terminal the browser draws in.
    public static let minimumSize = TerminalSize(width: 40, height: 10)

    /// Draws the whole state into a new buffer of `size`: title bar, table, status line or
    /// prompt, and the open overlay. Faults in only the visible rows.
    public func render(size: TerminalSize) -> ScreenBuffer {
        adoptSize(size)
        var buffer = ScreenBuffer(size: size, style: theme[.row])
        guard size.width >= Self.minimumSize.width, size.height >= Self.minimumSize.height else {
            buffer.write(DisplayWidth.truncate("terminal too small (\(size.width)×\(size.height); need 40×10)", toWidth: size.width),
                         x: 0, y: 0, style: theme[.error])
            return buffer
        }
        followEditedRow()
        let prompt = promptView
        let status = statusMessage
        // An error is shown whole: it wraps onto rows taken from the table, which keeps its
        // header and at least one row.
        let bottomRows = min(prompt?.height(width: size.width) ?? BarLine(left: "", style: .plain, message: status).height(width: size.width),
                             size.height - 3)
        let tableRect = Rect(x: 0, y: 1, width: size.width, height: size.height - 1 - bottomRows)
        table.pageHeight = max(1, tableRect.height - 1)
        keepColumnCursorVisible()

        BarLine(left: titleText, right: configuration.isReadOnly ? "read-only " : "", style: theme[.header])
            .render(into: &buffer, rect: Rect(x: 0, y: 0, width: size.width, height: 1))
        renderTable(into: &buffer, rect: tableRect)

        let bottom = Rect(x: 0, y: size.height - bottomRows, width: size.width, height: bottomRows)
        if let prompt {
            prompt.render(into: &buffer, rect: bottom, theme: theme)
        } else {
            BarLine(left: statusText, right: liveText, style: theme[.status], message: status).render(into: &buffer, rect: bottom)
        }
        renderOverlay(into: &buffer, area: Rect(x: 0, y: 1, width: size.width, height: size.height - 1 - bottomRows))
        return buffer
    }

    /// The status line's message in its style: an error alone; else the importer's alert (in
    /// place of a message such as "external change", which shows again once the alert is gone)
    /// or the message, then a running query and an export, when there. A message never hides
    /// the alert: it stays until a key is pressed, and the alert must show without one.
    var statusMessage: (text: String, style: CellStyle)? {
        if let message, message.isError { return (message.text, theme[.error]) }
        let waiting = pendingFetch.map { "\($0.label)… (Esc cancels)" }
        let alert = liveAlert?()
        let parts = [alert ?? message?.text, waiting, exportStatus].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return (parts.joined(separator: " · "), alert != nil ? theme[.error] : theme[.status].adding(.bold))
    }

    private var titleText: String {
        var parts = ["quarry", configuration.storeTitle, table.entity.name, "sort " + table.query.sortDescription]
        if let scope = table.query.scope { parts.insert(scope.title + " (Esc back)", at: 3) }
        if let filter = table.query.filter { parts.append("filter " + filter) }
        return parts.joined(separator: " · ")
    }

    private var statusText: String {
        let columns = shownColumns
        var parts = ["row \(table.cursorRowNumber)/\(rowCountText)", "col \(columns.isEmpty ? 0 : columnCursor + 1)/\(columns.count)"]
        if table.query.sectionKey != nil, let path = table.cursorPath {
            let name = table.sections[path.section].name
            parts.append(name.isEmpty ? "(none)" : name)
        }
        // A message needs the room: sort and filter stay in the title bar then.
        if message == nil {
            parts.append("sort " + table.query.userSortDescription)
            if let filter = table.query.filter { parts.append("filter " + filter) }
        }
        if hasPendingEdits { parts.append("✎ edits pending") }
        return parts.joined(separator: " · ")
    }

    private var liveText: String {
        var parts: [String] = []
        if isPaused { parts.append("⏸ paused") }
        if let live = liveStatus?() { parts.append(live) }
        let merges = stack.mergeStatistics
        if let last = merges.last, merges.count > 0 {
            parts.append("merged \(ValueText.formatDateTime(last).suffix(8))")
        }
        return parts.isEmpty ? "? help " : parts.joined(separator: " · ") + " "
    }

    private var promptView: PromptLine? {
        guard case .prompt(let state) = overlay else { return nil }
        let label: String
        switch state.kind {
        case .filter: label = "filter: "
        case .search: label = state.searchColumn.map { "/\($0.title): " } ?? "/"
        case .export: label = "export to: "
        case .command: label = ":"
        }
        return PromptLine(prompt: label, text: state.text, error: state.error)
    }

    private func renderTable(into buffer: inout ScreenBuffer, rect: Rect) {
        var columns = shownColumns
        let sortKeys = table.query.userSort
        let lines = table.visibleLines(columns: columns, now: ResultsTable.uptime())
        fitColumnWidths(to: lines)
        columns = shownColumns
        let tableColumns = columns.map { spec -> TableColumn in
            let sorted = sortKeys.first { $0.keyPath == spec.sortKeyPath }
            return TableColumn(title: spec.title, width: spec.width, alignment: spec.alignment, sortAscending: sorted?.ascending)
        }
        // The last column takes the width left over when it is on screen.
        let view = TableView(columns: tableColumns, lines: lines, firstColumn: firstColumn,
                             freezesFirstColumn: freezesFirstColumn, selectedColumn: columnCursor, lastColumnFills: true)
        view.render(into: &buffer, rect: rect, theme: theme)
        if table.rowCount == 0 {
            let text = table.query.filter == nil ? "no \(table.entity.name) objects" : "no rows match the filter"
            buffer.write(text, x: 2, y: rect.y + 2, style: theme[.row].adding(.dim))
        }
    }

    /// Fits each shown column's width to the visible rows (and its header), unless `<`/`>`
    /// fixed it; widths only grow while the query stays, so scrolling does not shake the table.
    private func fitColumnWidths(to lines: [TableLine]) {
        let rows = lines.compactMap { line -> [String]? in
            if case .row(let cells, _) = line { return cells }
            return nil
        }
        guard !rows.isEmpty else { return }
        var shown = 0
        let sortKeys = table.query.userSort
        for index in table.columns.indices where !table.columns[index].isHidden {
            let column = table.columns[index]
            let arrow = sortKeys.contains { $0.keyPath == column.sortKeyPath } ? 2 : 0
            let header = column.title + String(repeating: " ", count: arrow)
            table.columns[index].fit(to: rows.map { $0.indices.contains(shown) ? $0[shown] : "" }, header: header)
            shown += 1
        }
    }

    private func renderOverlay(into buffer: inout ScreenBuffer, area: Rect) {
        switch overlay {
        case nil, .prompt: break
        case .help(let scroll):
            ListOverlay(title: "Keys", entries: KeyHelp.entries, scroll: scroll, footer: "↑↓ scroll · Esc close")
                .render(into: &buffer, area: area, theme: theme)
        case .picker(let selected):
            ListOverlay(title: "Entity", entries: entityNames.map { ListOverlay.Entry(label: $0) }, selected: selected,
                        footer: "↑↓ choose · Enter open · Esc cancel")
                .render(into: &buffer, area: area, theme: theme)
        case .detail(let pages):
            pages.last?.view(scroll: 0).render(into: &buffer, area: area, theme: theme)
        case .form(let session):
            session.view().render(into: &buffer, area: area, theme: theme)
            session.picker?.view.render(into: &buffer, area: area, theme: theme)
        case .confirm(let confirmation):
            MessageBox(title: confirmation.title, lines: confirmation.lines).render(into: &buffer, area: area, theme: theme)
        case .text(let pages):
            pages.last?.view.render(into: &buffer, area: area, theme: theme)
        }
    }
}

private extension String {
    /// `nil` for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
