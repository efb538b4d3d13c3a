import Quarry
import QuarryTUI

extension Browser {
    /// `:`: opens the command line.
    func openCommandLine() {
        overlay = .prompt(PromptState(kind: .command, text: ""))
    }

    /// Runs the command typed on the `:` line; returns the error to show in the prompt, or
    /// `nil` when the command ran (the prompt then closes).
    func runCommandLine(_ text: String) -> (message: String, column: Int?)? {
        let command: BrowserCommand
        do {
            command = try BrowserCommand.parse(text)
        } catch {
            return (error.message, error.column)
        }
        switch command {
        case .jump(let row):
            afterFullIndex { [weak self] in self?.jump(toRow: row) }
        case .quit:
            requestQuit()
        case .write(let file, let force):
            if let error = startExport(to: file, replacing: force) { return (error, nil) }
        case .sort(let keys):
            for key in keys where !sortableKeyPaths.contains(key.keyPath) {
                return ("cannot sort by '\(key.keyPath)' (Tab completes the keys)", nil)
            }
            do {
                try startSort(keys)  // the section key, if any, stays first (TableQuery.effectiveSort)
            } catch {
                return ("cannot sort: \(error)", nil)
            }
        case .filter(let filter):
            do {
                try startFilter(filter) { [weak self] error in self?.message = ("filter failed: \(error)", true) }
            } catch let error as QueryError {
                let column = Self.column(of: error, in: filter ?? "").map { $0 + text.count - (filter?.count ?? 0) }
                return (error.description, column)
            } catch {
                return ("\(error)", nil)
            }
        case .entity(let name):
            guard let match = entityNames.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
                return ("no entity '\(name)' (Tab completes: \(entityNames.prefix(6).joined(separator: ", ")))", nil)
            }
            if match != table.entity.name { switchEntity(to: match) }
        case .theme(let name):
            if let error = switchTheme(to: name) { return (error, nil) }
        case .column(let name):
            if let error = jumpToColumn(named: name) { return (error, 5) }
        case .follow:
            toggleFollowMode()
        case .select(let predicate):
            if let error = selectMatching(predicate) {
                return (error.message, error.column.map { $0 + text.count - (predicate?.count ?? 0) })
            }
        case .unselect:
            if !clearSelection() { message = ("nothing selected", false) }
        case .since(let argument):
            if let error = openSince(argument) { return (error, text.count - argument.count + 1) }
        case .set(let assignments):
            if let error = setColumns(assignments) {
                return (error.message, error.column.map { $0 + text.count - assignments.count })
            }
        case .summary:
            toggleSummary()
        case .frequency(let keyPath):
            // The column of the key path typed (1-based, on the line after the `:`).
            if let error = openFrequency(of: keyPath) { return (error, Self.column(of: keyPath, in: text, backwards: true)) }
        }
        return nil
    }

    /// `:theme NAME`: draws with the theme `NAME` (a name Tab offers, in any case, or a path to
    /// a `.toml` file) from the next frame on; returns why not, the theme in use staying.
    func switchTheme(to name: String) -> String? {
        let directories = configuration.themeSearchDirectories
        // Names are matched as Tab offers them, ignoring case; a path is taken as it is.
        let known = themeNames.first { $0.caseInsensitiveCompare(name) == .orderedSame }
        let resolution = ThemeLoader.load(named: known ?? name, searchDirectories: directories)
        if let problem = resolution.problem {
            return known == nil && !ThemeLoader.isPath(name)
                ? "no theme '\(name)' (Tab completes: \(themeNames.joined(separator: ", ")))"
                : "theme: \(problem)"
        }
        theme = resolution.theme.adapted(to: colorCapability)
        message = ("theme \(resolution.theme.name)", false)
        return nil
    }

    /// Moves the cursor to the `row`-th row (1-based, over every section; the last when past it).
    func jump(toRow row: Int) {
        var remaining = min(row, table.rowCount) - 1
        guard remaining >= 0 else { return }
        for (index, section) in table.sections.enumerated() {
            if remaining < section.numberOfObjects {
                table.reveal(RowPath(section: index, row: remaining))
                if row > table.rowCount { message = ("there are \(table.rowCount) rows: on the last", false) }
                return
            }
            remaining -= section.numberOfObjects
        }
    }

    /// The key paths `:sort` and the filter accept for the entity shown: its stored attributes
    /// (Binary and Transformable left out) and its to-one relationships' display keys.
    var sortableKeyPaths: [String] { table.columns.compactMap(\.sortKeyPath) }

    // MARK: Completion and history

    /// Tab in a prompt: completes the word before the caret (command names, then entity, key
    /// and theme names as the command takes them); Tab again cycles through the candidates.
    func completePrompt(_ state: PromptState) {
        let text = state.text.text
        if var completions = state.completions, !completions.candidates.isEmpty {
            let shown = completions.candidates[completions.index]
            completions.index = (completions.index + 1) % completions.candidates.count
            replace(in: state, range: completions.start..<(completions.start + shown.count), with: completions.candidates[completions.index])
            state.completions = completions
            return
        }
        let characters = Array(text)
        let caret = state.text.caret
        var start = caret
        while start > 0, !" ,()!=<>".contains(characters[start - 1]) { start -= 1 }
        let word = String(characters[start..<caret])
        let candidates = completionCandidates(kind: state.kind, before: String(characters[..<start]))
            .filter { $0.lowercased().hasPrefix(word.lowercased()) }
        guard let first = candidates.first else {
            state.error = ("nothing to complete for \"\(word)\"", nil)
            return
        }
        replace(in: state, range: start..<caret, with: first)
        state.completions = candidates.count > 1 ? (candidates, 0, start) : nil
        if candidates.count > 1 { state.error = ("\(candidates.count) completions: \(candidates.prefix(8).joined(separator: " "))", nil) }
    }

    /// What can follow `before` in a prompt of `kind`.
    func completionCandidates(kind: PromptState.Kind, before: String) -> [String] {
        switch kind {
        case .filter: return sortableKeyPaths
        case .command:
            let words = before.split(separator: " ").map(String.init)
            guard let command = words.first else { return BrowserCommand.names }
            switch command {
            case "entity": return entityNames
            case "theme": return themeNames
            case "sort": return sortableKeyPaths + (words.count > 1 ? ["asc", "desc"] : [])
            case "filter", "freq", "frequency": return sortableKeyPaths
            case "col", "column": return shownColumns.map(\.title)
            case "select": return sortableKeyPaths
            case "set": return settableKeys
            default: return []
            }
        case .search, .export: return []
        }
    }

    private func replace(in state: PromptState, range: Range<Int>, with replacement: String) {
        var characters = Array(state.text.text)
        let upper = min(range.upperBound, characters.count)
        characters.replaceSubrange(min(range.lowerBound, upper)..<upper, with: Array(replacement))
        let caret = range.lowerBound + replacement.count
        state.text = EditableText(String(characters))
        state.text.moveCaret(to: caret)
        state.error = nil
    }

    /// ↑ (`older`) or ↓ in a prompt: the previous or next line of the shared history; past the
    /// newest, the line that was being typed.
    func walkHistory(_ state: PromptState, older: Bool) {
        let lines = promptHistory.lines
        guard !lines.isEmpty else { return }
        var index = state.historyIndex ?? lines.count
        if state.historyIndex == nil { state.draft = state.text.text }
        index += older ? -1 : 1
        index = max(0, index)
        state.completions = nil
        state.error = nil
        if index >= lines.count {
            state.historyIndex = nil
            state.text = EditableText(state.draft ?? "")
        } else {
            state.historyIndex = index
            state.text = EditableText(lines[index])
        }
    }
}
