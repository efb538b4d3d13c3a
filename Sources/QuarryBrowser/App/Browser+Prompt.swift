import Quarry
import QuarryTUI

extension Browser {
    /// Keys typed into the filter or search prompt.
    func handlePromptKey(_ key: Key, state: PromptState) {
        var state = state
        switch key {
        case .escape:
            overlay = nil
            if state.kind == .search, let origin = state.origin, let index = table.displayIndex(of: origin) {
                table.moveCursor(to: index)
            }
            return
        case .enter:
            switch state.kind {
            case .filter:
                if applyFilter(state.text, state: &state) { overlay = nil } else { overlay = .prompt(state) }
            case .search:
                overlay = nil
                lastSearch = state.text.isEmpty ? lastSearch : state.text
            }
            return
        case .backspace:
            guard state.caret > 0 else { break }
            var characters = Array(state.text)
            characters.remove(at: state.caret - 1)
            state.text = String(characters)
            state.caret -= 1
        case .delete:
            var characters = Array(state.text)
            if state.caret < characters.count { characters.remove(at: state.caret) }
            state.text = String(characters)
        case .left: state.caret = max(0, state.caret - 1)
        case .right: state.caret = min(state.text.count, state.caret + 1)
        case .home, .control("a"): state.caret = 0
        case .end, .control("e"): state.caret = state.text.count
        case .control("u"):
            state.text = ""
            state.caret = 0
        case .character(let c):
            var characters = Array(state.text)
            characters.insert(c, at: state.caret)
            state.text = String(characters)
            state.caret += 1
        default:
            return
        }
        state.error = nil
        if state.kind == .search, !state.text.isEmpty {
            if !search(state.text, from: state.origin.flatMap(table.displayIndex(of:)) ?? 0, forward: true, includeStart: true) {
                state.error = ("no match for \"\(state.text)\"", nil)
            }
        }
        overlay = .prompt(state)
    }

    /// Applies `text` as the table's filter. On error the old filter stays and the prompt shows
    /// the error at its column. Returns whether the filter was applied.
    private func applyFilter(_ text: String, state: inout PromptState) -> Bool {
        var query = table.query
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        query.filter = trimmed.isEmpty ? nil : trimmed
        do {
            try table.reload(query)
            message = query.filter == nil ? ("filter cleared", false) : ("\(table.rowCount) rows match", false)
            return true
        } catch let error as QueryError {
            state.error = (error.description, Self.column(of: error, in: text))
        } catch {
            state.error = ("\(error)", nil)
        }
        return false
    }

    /// The 1-based column a query error points at in `text`, if it can be told.
    static func column(of error: QueryError, in text: String) -> Int? {
        switch error {
        case .unexpected(_, let column, _), .unterminatedString(let column), .missingArgument(let column),
             .invalidKeyPathArgument(let column, _):
            return column
        case .unknownKey(_, let key), .invalidKeyPath(_, let key, _):
            return text.range(of: key).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
        default:
            return nil
        }
    }
}
