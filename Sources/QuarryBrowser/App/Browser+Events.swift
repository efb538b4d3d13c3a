import Foundation
import Quarry
import QuarryTUI

extension Browser {
    /// Applies one event to the state. The layout it changes (the page height, the column
    /// scroll, the fitted widths, the visible rows) is redone before the next frame, by
    /// ``prepareFrame(size:)``, never by ``render(size:)``: once per frame however many keys
    /// came, as drawing was. Keys and clicks act on the layout the last frame showed.
    /// Never throws: failures become status-line messages.
    public func handle(_ event: TerminalEvent) {
        apply(event)
        screen.needsLayout = true
    }

    private func apply(_ event: TerminalEvent) {
        switch event {
        case .resize(let size):
            adoptSize(size)
        case .terminate(let signal):
            // SIGTERM and SIGHUP always quit. SIGINT (Ctrl-C) cancels a running query first, and
            // asks before quitting when a form is open.
            if signal == SIGINT {
                if !cancelPendingFetch() { requestQuit(signal: signal) }
            } else {
                quit(signal: signal)
            }
        case .key(let key):
            handle(key)
        case .paste(let text):
            handlePaste(text)
        case .mouse(let event):
            handleMouse(event)
        }
    }

    /// Pasted text is text, never keys: it goes into the open prompt or form field as one
    /// edit, and is ignored anywhere else (so a pasted ESC or `q` never runs as a command).
    private func handlePaste(_ text: String) {
        switch overlay {
        case .prompt(let state): editPrompt(state) { $0.insert(Self.singleLine(text)) }
        case .form(let session): session.paste(Self.singleLine(text))
        default: message = ("paste ignored: open a prompt (f, /) or a form (e, a) first", false)
        }
    }

    /// Pasted text as one line: line breaks and tabs become spaces (other controls stay, and
    /// are shown escaped).
    static func singleLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
    }

    private func handle(_ key: Key) {
        if key == .control("l") { return }  // a full redraw happens anyway
        switch overlay {
        case nil:
            message = nil
            handleTableKey(key)
        case .help(let scroll):
            handleHelpKey(key, scroll: scroll)
        case .prompt(let state):
            handlePromptKey(key, state: state)
        case .picker(let selected):
            handlePickerKey(key, selected: selected)
        case .detail(let pages):
            handleDetailKey(key, pages: pages)
        case .form(let session):
            handleFormKey(key, session: session)
        case .text(let pages):
            handlePagesKey(key, pages: pages)
        case .frequency(let view):
            handleFrequencyKey(key, view: view)
        case .confirm(let confirmation):
            switch key {
            case .character("y"), .character("Y"):
                overlay = nil
                confirmation.onYes()
            case .character("n"), .character("N"), .escape, .character("q"):
                overlay = nil
                confirmation.onNo?()
            default: break
            }
        }
    }

    // MARK: Table

    private func handleTableKey(_ key: Key) {
        if let prefix = pendingPrefix {
            pendingPrefix = nil
            return handlePrefixedKey(key, after: prefix)
        }
        if takeCountDigit(key) { return }
        let count = motions.takeCount()
        guard let action = KeyHelp.actions[key] else {
            noteUnknownKey(key)
            return
        }
        if count != nil, action == .cancel { return }  // Esc clears a count
        leaveFollowModeIfMoving(action)
        perform(action, count: count)
    }

    /// Does what a key bound to `action` (``KeyHelp/bindings``) does on the table, `count`
    /// times (or to row `count` for `g`/`G`) when a count was typed before it.
    private func perform(_ action: TableAction, count: Int? = nil) {
        let n = count ?? 1
        switch action {
        case .quit: requestQuit()
        case .rowDown: table.moveCursor(by: n)
        case .rowUp: table.moveCursor(by: -n)
        case .pageDown: table.page(by: n)
        case .pageUp: table.page(by: -n)
        case .halfPageDown: moveHalfPage(by: 1, count: n)
        case .halfPageUp: moveHalfPage(by: -1, count: n)
        case .top where count != nil, .bottom where count != nil: afterFullIndex { self.jump(toRow: n) }
        case .top where table.previewOffset > 0: afterFullIndex { self.table.moveToTop() }
        case .top: table.moveToTop()
        case .bottom: afterFullIndex { self.table.moveToBottom() }
        case .nextSection: afterFullIndex { self.table.jumpSection(by: n) }
        case .previousSection: afterFullIndex { self.table.jumpSection(by: -n) }
        case .columnRight: moveColumnCursor(by: n)
        case .columnLeft: moveColumnCursor(by: -n)
        case .firstColumn: moveColumnCursor(toLast: false)
        case .lastColumn: moveColumnCursor(toLast: true)
        case .jumpToColumn: openColumnJump()
        case .followTop: toggleFollowMode()
        case .back: goBack()
        case .help: overlay = .help(scroll: 0)
        case .pickEntity: openEntityPicker()
        case .search: openSearch()
        case .filter: overlay = .prompt(PromptState(kind: .filter, text: table.query.filter ?? ""))
        case .nextMatch: afterFullIndex { for _ in 0..<min(n, 10_000) { self.repeatSearch(forward: true) } }
        case .previousMatch: afterFullIndex { for _ in 0..<min(n, 10_000) { self.repeatSearch(forward: false) } }
        case .sortAscending: sortByColumnUnderCursor(ascending: true)
        case .sortDescending: sortByColumnUnderCursor(ascending: false)
        case .narrow: resizeColumnUnderCursor(by: -2)
        case .widen: resizeColumnUnderCursor(by: 2)
        case .hide: hideColumnUnderCursor()
        case .showAll: showAllColumns()
        case .freeze:
            columnView.freezesFirstColumn.toggle()
            message = (columnView.freezesFirstColumn ? "first column frozen" : "first column scrolls", false)
        case .open:
            afterPendingFetch {
                if self.table.cursorPath == nil, let section = self.table.cursorSection {
                    self.toggleSection(section)
                } else if !self.followToOneCell() {
                    self.performSelectionAction()
                }
            }
        case .sectionPrefix:
            pendingPrefix = "z"
            message = ("z: a toggles this section, M collapses all, R expands all", false)
        case .copyCell: afterPendingFetch { self.table.selection.isEmpty ? self.copyCell() : self.copySelection(wholeRows: false) }
        case .copyRow: afterPendingFetch { self.table.selection.isEmpty ? self.copyRow() : self.copySelection(wholeRows: true) }
        case .toggleSelection: afterPendingFetch { self.toggleSelection(count: n) }
        case .selectMatching: openSelectMatching()
        case .schema: openSchema()
        case .commandLine: openCommandLine()
        case .history: openHistory()
        case .pause: togglePause()
        case .refresh: refresh()
        case .edit: afterPendingFetch { self.beginEdit(new: false) }
        case .add: beginEdit(new: true)
        case .delete: afterPendingFetch { self.table.selection.isEmpty ? self.confirmDelete() : self.confirmDeleteSelection() }
        case .export: beginExport()
        case .setColumn: openSetColumn()
        case .frequency: afterPendingFetch { self.openFrequencyOfColumnUnderCursor() }
        case .summary: afterPendingFetch { self.toggleSummary() }
        case .undo: afterPendingFetch { self.undoEdit() }
        case .redo: afterPendingFetch { self.redoEdit() }
        case .redraw: break  // a full redraw happens anyway
        case .cancel:
            if !cancelPendingFetch(), !cancelExport(), !clearSelection() {
                if let pages = pagesReturn {
                    pagesReturn = nil
                    overlay = .text(pages)
                } else {
                    closeRelationshipTable()
                }
            }
        }
    }

    /// The second key of a two-key command (`za`, `zM`, `zR`).
    private func handlePrefixedKey(_ key: Key, after prefix: Character) {
        message = nil
        switch (prefix, key) {
        case ("z", .character("a")), ("z", .character("c")), ("z", .character("o")): toggleSectionUnderCursor()
        case ("z", .character("M")): setAllSectionsCollapsed(true)
        case ("z", .character("R")): setAllSectionsCollapsed(false)
        default: message = ("z\(KeyHelp.name(of: key)) does nothing (za, zM, zR)", true)
        }
    }

    /// The entities the picker offers (abstract ones left out).
    var entityNames: [String] { stack.model.entities.filter { !$0.isAbstract }.map(\.name) }

    private func moveColumnCursor(by delta: Int) {
        let count = shownColumns.count
        guard count > 0 else { return }
        columnView.cursor = min(max(0, columnView.cursor + delta), count - 1)
        keepColumnCursorVisible()
    }

    func sortByColumnUnderCursor(ascending: Bool) {
        let columns = shownColumns
        guard columns.indices.contains(columnView.cursor), let keyPath = columns[columnView.cursor].sortKeyPath else {
            message = ("this column cannot be sorted", true)
            return
        }
        let comparison = SortKey.StringComparison.binary  // served by the column index
        let key = table.query.sectionKey == keyPath ? SortKey(keyPath, ascending: ascending) : SortKey(keyPath, ascending: ascending, comparison: comparison)
        do {
            try startSort([key])
        } catch {
            message = ("cannot sort by \(keyPath): \(error)", true)
        }
    }

    /// Sorts the table by `keys` (the section key, if any, stays first), its query off the main
    /// queue ("sorting…", Esc cancels); the status line says how it went.
    /// - Throws: at once, for keys the query cannot sort by.
    func startSort(_ keys: [SortKey]) throws {
        var query = table.query
        query.sort = keys
        let description = keys.map { "\($0.keyPath) \($0.ascending ? "▲" : "▼")" }.joined(separator: ", ")
        let names = keys.map(\.keyPath).joined(separator: ", ")
        try startFetch(query, label: "sorting") { [weak self] error in
            switch error {
            case nil: self?.message = ("sorted by \(description)", false)
            case QueryCancellationError.cancelled?: self?.message = ("sort cancelled", false)
            case let error?: self?.message = ("cannot sort by \(names): \(error)", true)
            }
        }
    }

    private func resizeColumnUnderCursor(by delta: Int) {
        guard let index = tableColumnIndex(ofShown: columnView.cursor) else { return }
        table.columns[index].width = min(200, max(3, table.columns[index].width + delta))
        table.columns[index].isWidthFixed = true
        keepColumnCursorVisible()
    }

    private func hideColumnUnderCursor() {
        guard shownColumns.count > 1, let index = tableColumnIndex(ofShown: columnView.cursor) else {
            message = ("the last column cannot be hidden", true)
            return
        }
        table.columns[index].isHidden = true
        message = ("hid \(table.columns[index].title) (= shows all)", false)
        keepColumnCursorVisible()
    }

    private func showAllColumns() {
        for index in table.columns.indices { table.columns[index].isHidden = false }
    }

    /// The index in `table.columns` of the `shown`-th visible column.
    func tableColumnIndex(ofShown shown: Int) -> Int? {
        var seen = -1
        for (index, column) in table.columns.enumerated() where !column.isHidden {
            seen += 1
            if seen == shown { return index }
        }
        return nil
    }

    // MARK: Help and picker

    private func handleHelpKey(_ key: Key, scroll: Int) {
        switch key {
        case .escape, .character("q"), .character("?"), .enter: overlay = nil
        case .down, .character("j"): overlay = .help(scroll: min(scroll + 1, max(0, KeyHelp.entries.count - 1)))
        case .up, .character("k"): overlay = .help(scroll: max(0, scroll - 1))
        default: break
        }
    }

    private func handlePickerKey(_ key: Key, selected: Int) {
        let names = pickerNames
        switch key {
        case .escape: overlay = nil
        case .down, .tab: overlay = .picker(selected: (selected + 1) % max(1, names.count))
        case .up, .backTab: overlay = .picker(selected: (selected - 1 + names.count) % max(1, names.count))
        case .enter:
            overlay = nil
            guard names.indices.contains(selected), names[selected] != table.entity.name else { return }
            switchEntity(to: names[selected])
        case .backspace:
            guard !entityPicker.query.isEmpty else { return }
            entityPicker.query.removeLast()
            overlay = .picker(selected: 0)
        case .control("u"):
            entityPicker.query = ""
            overlay = .picker(selected: pickerNames.firstIndex(of: table.entity.name) ?? 0)
        case .character(let c):
            entityPicker.query.append(c)
            overlay = .picker(selected: 0)
        default: break
        }
    }

    // MARK: Detail

    private func handleDetailKey(_ key: Key, pages: [DetailPage]) {
        guard var page = pages.last else { overlay = nil; return }
        var pages = pages
        switch key {
        case .escape, .backspace, .character("q"):
            pages.removeLast()
            overlay = pages.isEmpty ? nil : .detail(pages)
            return
        case .down, .character("j"): page.selected = min(page.entries.count - 1, page.selected + 1)
        case .up, .character("k"): page.selected = max(0, page.selected - 1)
        case .pageDown: page.selected = min(page.entries.count - 1, page.selected + 10)
        case .pageUp: page.selected = max(0, page.selected - 10)
        case .enter:
            if let table = page.tables[page.selected] {
                openRelationshipTable(entity: table.entity, scope: table.scope)
                return
            }
            guard let target = page.links[page.selected] else {
                message = ("nothing to follow here", true)
                return
            }
            do {
                pages.append(try DetailPage(objectID: target, context: stack.mainContext))
                overlay = .detail(pages)
            } catch {
                message = ("cannot open the object: \(error)", true)
            }
            return
        default: return
        }
        pages[pages.count - 1] = page
        overlay = .detail(pages)
    }
}
