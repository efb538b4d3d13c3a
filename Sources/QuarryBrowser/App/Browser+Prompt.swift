import Quarry
import QuarryTUI

extension Browser {
    /// Keys typed into the filter or search prompt.
    func handlePromptKey(_ key: Key, state: PromptState) {
        switch key {
        case .escape:
            overlay = state.sincePages.map { .text($0) }
            if state.kind == .search, let origin = state.origin, let index = table.displayIndex(of: origin) {
                table.moveCursor(to: index)
            }
        case .enter:
            switch state.kind {
            case .filter:
                promptHistory.add(state.text.text)
                if applyFilter(state.text.text, state: state) { overlay = nil }
            case .search:
                overlay = nil
                let text = state.text.text
                promptHistory.add(text)
                if let column = state.searchColumn, !text.isEmpty {
                    lastSearch = text
                    lastSearchColumn = column
                    afterFullIndex { [weak self] in
                        guard let self else { return }
                        do {
                            if try !self.searchColumn(column, for: text, from: self.table.cursor, forward: true, includeStart: true) {
                                self.message = ("no \(column.title) starts with \"\(text)\"; the cursor stays", true)
                            }
                        } catch {
                            self.message = ("cannot search \(column.title): \(error)", true)
                        }
                    }
                } else {
                    lastSearch = text.isEmpty ? lastSearch : text
                    lastSearchColumn = nil
                    // No row starts with the whole text: the cursor goes back to where it was.
                    if state.hasNoMatch, let origin = state.origin, let index = table.displayIndex(of: origin) {
                        table.moveCursor(to: index)
                        message = ("no match for \"\(text)\"; the cursor stays", true)
                    }
                }
            case .export:
                overlay = state.sincePages.map { .text($0) }
                let error = state.sincePages.map { exportSince($0, to: state.text.text) } ?? startExport(to: state.text.text)
                if let error {
                    state.error = (error, nil)
                    overlay = .prompt(state)
                }
            case .command:
                promptHistory.add(state.text.text)
                overlay = nil
                if let error = runCommandLine(state.text.text) {
                    // The line comes back with the error under its column.
                    state.error = error
                    if let column = error.column { state.text.moveCaret(to: max(0, column - 1)) }
                    if case .none = overlay { overlay = .prompt(state) } else { message = (error.message, true) }
                }
            }
        case .tab: completePrompt(state)
        case .up, .down:
            guard state.kind != .export else { return }
            walkHistory(state, older: key == .up)
            if state.kind == .search { editPrompt(state) { _ in } }
        case .backspace: editPrompt(state) { $0.deleteBackward() }
        case .delete: editPrompt(state) { $0.deleteForward() }
        case .left: state.text.moveLeft()
        case .right: state.text.moveRight()
        case .home, .control("a"): state.text.moveToStart()
        case .end, .control("e"): state.text.moveToEnd()
        case .control("u"): editPrompt(state) { $0.removeAll() }
        case .character(let c): editPrompt(state) { $0.insert(c) }
        default: break
        }
    }

    /// Applies one edit to the prompt's text (in place: O(1) amortized for typing), clears the
    /// error, and for the search prompt searches again.
    func editPrompt(_ state: PromptState, _ edit: (inout EditableText) -> Void) {
        edit(&state.text)
        state.error = nil
        state.completions = nil
        if state.kind == .search, state.searchColumn != nil {
            state.error = state.text.isEmpty ? nil : ("Enter searches \(state.searchColumn?.title ?? "")", nil)
            return
        }
        if state.kind == .search, !state.text.isEmpty {
            guard table.isComplete else {
                // Searched again (with the text typed by then) once every row is in.
                state.error = ("reading every row: searching when the index is complete", nil)
                afterFullIndex { [weak self] in
                    guard let self, case .prompt(let open)? = self.overlay, open === state else { return }
                    self.editPrompt(state) { _ in }
                }
                return
            }
            let text = state.text.text
            state.hasNoMatch = !search(text, from: state.origin.flatMap(table.displayIndex(of:)) ?? 0, forward: true, includeStart: true)
            if state.hasNoMatch { state.error = ("no match for \"\(text)\"", nil) }
        }
    }

    /// Applies `text` as the table's filter, its query off the main queue ("filtering…", Esc
    /// cancels). A filter that does not compile is refused at once: the prompt shows the error
    /// at its column. Returns whether the query started (the prompt then closes); if the query
    /// itself fails, the prompt comes back with the text and the error. Meanwhile, and after a
    /// failure or a cancellation, the old filter stays.
    private func applyFilter(_ text: String, state: PromptState) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        do {
            try startFilter(trimmed.isEmpty ? nil : trimmed) { [weak self] error in
                self?.showFilterError(error, text: text, state: state)
            }
            return true
        } catch {
            showFilterError(error, text: text, state: state)
        }
        return false
    }

    /// Filters the table with `filter` (`nil` clears it), its query off the main queue
    /// ("filtering…", Esc cancels); the status line says how many rows match, and `onFailure`
    /// is told when the query itself fails. Meanwhile, and after a failure or a cancellation,
    /// the old filter stays.
    /// - Throws: at once, for a filter that does not compile.
    func startFilter(_ filter: String?, onFailure: @escaping @MainActor (Error) -> Void) throws {
        var query = table.query
        query.filter = filter
        try startFetch(query, label: "filtering") { [weak self] error in
            guard let self else { return }
            switch error {
            case nil: self.message = filter == nil ? ("filter cleared", false) : (self.table.rowCount == 1 ? "1 row matches" : "\(self.table.rowCount) rows match", false)
            case QueryCancellationError.cancelled?: self.message = ("filter cancelled; the old filter stays", false)
            case let error?: onFailure(error)
            }
        }
    }

    /// Shows `error` in the filter prompt (reopened when nothing else is open), the caret on the
    /// column at fault so a long filter scrolls to show it.
    private func showFilterError(_ error: Error, text: String, state: PromptState) {
        if let error = error as? QueryError {
            let column = Self.column(of: error, in: text)
            state.error = (error.description, column)
            if let column { state.text.moveCaret(to: column - 1) }
        } else {
            state.error = ("\(error)", nil)
        }
        if case .none = overlay {
            overlay = .prompt(state)
        } else {
            message = ("filter failed: \(error)", true)  // something else was opened meanwhile
        }
    }

    /// The 1-based column a query error points at in `text`, if it can be told.
    static func column(of error: QueryError, in text: String) -> Int? {
        switch error {
        case .unexpected(_, let column, _), .unterminatedString(let column), .missingArgument(let column),
             .invalidKeyPathArgument(let column, _):
            return column
        case .unknownKey(_, let key), .invalidKeyPath(_, let key, _):
            return column(of: key, in: text)
        default:
            return nil
        }
    }

    /// The 1-based column where `word` is written in `text` (its first or, `backwards`, its
    /// last occurrence), if it is.
    static func column(of word: String, in text: String, backwards: Bool = false) -> Int? {
        text.range(of: word, options: backwards ? .backwards : []).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
    }
}
