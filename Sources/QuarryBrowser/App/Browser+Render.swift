import Quarry
import QuarryTUI

extension Browser {
    /// The smallest terminal the browser draws in.
    public static let minimumSize = TerminalSize(width: 40, height: 10)

    /// Draws the whole state into a new buffer of `size`: title bar, table, status line or
    /// prompt, and the open overlay.
    ///
    /// Pure: it changes nothing, so rendering twice gives the same screen. It draws the layout
    /// kept by ``prepareFrame(size:)``, or, for a state or size not laid out, one computed for
    /// the frame and not kept (faulting in only the visible rows).
    public func render(size: TerminalSize) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size, style: theme[.row])
        guard Self.fits(size) else {
            buffer.write(DisplayWidth.truncate("terminal too small (\(size.width)×\(size.height); need 40×10)", toWidth: size.width),
                         x: 0, y: 0, style: theme[.error])
            return buffer
        }
        let prompt = promptView
        let status = statusMessage
        let bottomRows = bottomRows(size: size)
        let layout = currentLayout(size: size, bottomRows: bottomRows) ?? makeLayout(size: size, bottomRows: bottomRows)

        BarLine(left: titleText, right: configuration.isReadOnly ? "read-only " : "", style: theme[.header])
            .render(into: &buffer, rect: Rect(x: 0, y: 0, width: size.width, height: 1))
        renderTable(layout, into: &buffer)

        let bottom = Rect(x: 0, y: size.height - bottomRows, width: size.width, height: bottomRows)
        if let prompt {
            prompt.render(into: &buffer, rect: bottom, theme: theme)
        } else {
            BarLine(left: statusText(columnCursor: layout.columnView.cursor), right: liveText, style: theme[.status], message: status)
                .render(into: &buffer, rect: bottom)
        }
        renderOverlay(into: &buffer, area: layout.tableRect)
        return buffer
    }

    /// The status line's message in its style: an error alone; else the importer's alert (in
    /// place of a message such as "external change", which shows again once the alert is gone)
    /// or the message, then a running query and an export, when there. A message never hides
    /// the alert: it stays until a key is pressed, and the alert must show without one.
    var statusMessage: (text: String, style: CellStyle)? {
        if let message, message.isError { return (message.text, theme[.error]) }
        let waiting = fetches.pending.map { "\($0.label)… (Esc cancels)" }
        let alert = liveAlert?()
        let parts = [alert ?? message?.text, waiting, exportStatus].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return (parts.joined(separator: " · "), alert != nil ? theme[.error] : theme[.status].adding(.bold))
    }

    private var titleText: String {
        var parts = ["quarry", configuration.storeTitle, table.entity.name, "sort " + table.query.sortDescription]
        if let scope = table.query.scope { parts.insert(scope.title + " (Esc back)", at: 3) }
        if let filter = table.query.filter { parts.append("filter " + filter) }
        if let frequency = frequencyView { parts.append("frequency of \(frequency.keyPath) (Enter: its rows · s S sort · Esc closes)") }
        return parts.joined(separator: " · ")
    }

    /// The status line's text, with the column cursor as laid out.
    private func statusText(columnCursor: Int) -> String {
        if let frequency = frequencyView { return frequency.statusText }
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
        if !table.selection.isEmpty { parts.append("\(table.selection.count) selected") }
        if table.followsTop { parts.append("following (t)") }
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

    var promptView: PromptLine? {
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

    private func renderTable(_ layout: BrowserLayout, into buffer: inout ScreenBuffer) {
        // The frequency view (an overlay) covers the whole table area.
        if case .frequency = overlay { return }
        let rect = layout.tableRect
        // The last column takes the width left over when it is on screen.
        var lines = layout.window.lines(now: ResultsTable.uptime())
        if layout.summaryRows > 0, let summary {
            // The whole table's summary sits on the area's last line, under the rows.
            lines += Array(repeating: TableLine.row(cells: [], highlight: []), count: max(0, layout.pageHeight - lines.count))
            lines.append(.row(cells: summary.totalCells(layout.columns.filter { !$0.isHidden }), highlight: .summary))
        }
        var view = TableView(columns: layout.tableColumns, lines: lines,
                             firstColumn: layout.columnView.firstColumn, freezesFirstColumn: layout.columnView.freezesFirstColumn,
                             selectedColumn: layout.columnView.cursor, lastColumnFills: true)
        view.marksSelection = !table.selection.isEmpty
        view.markedCells = sinceMarkedCells(lines: lines, objects: layout.window.objects, columns: layout.columns.filter { !$0.isHidden })
        view.render(into: &buffer, rect: rect, theme: theme)
        if table.rowCount == 0 {
            let text = table.query.filter == nil ? "no \(table.entity.name) objects" : "no rows match the filter"
            buffer.write(text, x: 2, y: rect.y + 2, style: theme[.row].adding(.dim))
        }
    }

    private func renderOverlay(into buffer: inout ScreenBuffer, area: Rect) {
        switch overlay {
        case nil, .prompt: break
        case .help(let scroll):
            ListOverlay(title: "Keys", entries: KeyHelp.entries, scroll: scroll, footer: "↑↓ scroll · Esc close")
                .render(into: &buffer, area: area, theme: theme)
        case .picker(let selected):
            let names = pickerNames
            let entries = names.isEmpty ? [ListOverlay.Entry(label: "no entity matches \"\(entityPicker.query)\"")]
                : names.map { ListOverlay.Entry(label: $0, value: entityPicker.countText(of: $0)) }
            ListOverlay(title: entityPicker.query.isEmpty ? "Entity (type to narrow)" : "Entity: \(entityPicker.query)", entries: entries,
                        selected: names.isEmpty ? nil : selected, footer: "type to narrow · ↑↓ choose · Enter open · Esc cancel")
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
        case .frequency(let view):
            view.tableView(width: area.width, height: area.height, now: ResultsTable.uptime()).render(into: &buffer, rect: area, theme: theme)
        }
    }
}

private extension String {
    /// `nil` for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
