import Quarry
import QuarryTUI

/// Selecting rows and acting on them: `v` toggles the cursor's row (and moves down), `V` (or
/// `:select PREDICATE`) selects every row of the view matching a predicate, Esc or `:unselect`
/// clears; selected rows are marked in the gutter and counted on the status line. With a
/// selection, `d` deletes the selected objects (asking first; `u` brings them back) and `y`/`Y`
/// copy the cells / rows of the selection.
extension Browser {
    /// `v`: toggles the cursor's row `count` times down the table.
    func toggleSelection(count: Int) {
        for step in 0..<max(1, count) {
            guard let id = table.cursorID else { break }
            if table.selection.remove(id) == nil { table.selection.insert(id) }
            _ = step
            table.moveCursor(by: 1)
        }
        describeSelection()
    }

    /// `V`: the command line, ready for a predicate (empty: every row of the view).
    func openSelectMatching() {
        overlay = .prompt(PromptState(kind: .command, text: "select "))
    }

    /// `:select PREDICATE`: adds every object of the view (entity, filter, relationship) that
    /// matches `text` (every one when `nil`) to the selection; returns the error, with its column
    /// within `text`, when the predicate is bad.
    func selectMatching(_ text: String?) -> (message: String, column: Int?)? {
        do {
            let view = try table.query.predicate()
            var predicate = view
            if let text {
                let typed = try ObjectPredicate(format: text)
                predicate = view.map { .and([$0, typed]) } ?? typed
            }
            let request = FetchRequest(entityName: table.entity.name, predicate: predicate)
            let ids = try stack.mainContext.fetchObjectIDs(request)
            let before = table.selection.count
            table.selection.formUnion(ids)
            message = ("selected \(table.selection.count - before) more (\(table.selection.count) selected; Esc clears)", false)
            return nil
        } catch let error as QueryError {
            return (error.description, Self.column(of: error, in: text ?? ""))
        } catch {
            return ("cannot select: \(error)", nil)
        }
    }

    /// Esc or `:unselect`: clears the selection; returns whether there was one.
    @discardableResult
    func clearSelection() -> Bool {
        guard !table.selection.isEmpty else { return false }
        let count = table.selection.count
        table.selection = []
        message = ("unselected \(count)", false)
        return true
    }

    /// The cells the selection's gutter takes on the table's left (``TableView/gutterWidth``
    /// while rows are selected, else none): the columns' layout, scroll and clicks leave it out.
    var gutterWidth: Int { table.selection.isEmpty ? 0 : TableView.gutterWidth }

    /// The cells the columns get on a screen `width` wide (the gutter left out).
    func columnsWidth(_ width: Int) -> Int { max(1, width - gutterWidth) }

    /// The status line's word on the selection.
    func describeSelection() {
        message = table.selection.isEmpty ? ("nothing selected", false)
            : ("\(table.selection.count) selected (v toggles, d deletes, y Y copy, Esc clears)", false)
    }

    /// The selected objects still in the table, in its order.
    var selectedInOrder: [ObjectID] {
        let selection = table.selection
        var ordered: [ObjectID] = []
        for section in table.controller.sections.indices {
            for row in 0..<table.controller.sections[section].numberOfObjects {
                let id = table.controller.objectID(at: RowPath(section: section, row: row))
                if selection.contains(id) { ordered.append(id) }
            }
        }
        return ordered
    }

    /// `y` / `Y` with a selection: the cell under the column cursor, or the whole row
    /// (tab-separated), of each selected object, one per line.
    func copySelection(wholeRows: Bool) {
        let columns = shownColumns
        guard columns.indices.contains(columnView.cursor) else { return }
        let context = stack.mainContext
        let lines = selectedInOrder.map { id -> String in
            let object = context.object(with: id)
            return wholeRows ? columns.map { Self.clipboardText($0.text(for: object)) }.joined(separator: "\t")
                : Self.clipboardText(columns[columnView.cursor].text(for: object))
        }
        copy(lines.joined(separator: "\n"), what: "\(wholeRows ? "the rows" : columns[columnView.cursor].title) of \(lines.count) selected")
    }

    /// `d` with a selection: asks, saying how many objects the delete rules remove with them.
    func confirmDeleteSelection() {
        guard deletingIsAllowed else { return }
        let ids = selectedInOrder
        guard !ids.isEmpty, let count = deleteCount(of: ids) else { return }
        let name = table.entity.name
        let others = count - ids.count
        let line = "Delete the \(ids.count) selected \(name) objects" + (others > 0 ? " and \(others) related (delete rules)" : "") + "? (y/n)"
        overlay = .confirm(Confirmation(title: "Delete", lines: [line]) { [weak self] in
            guard let self else { return }
            let deleted = self.deleteInOneSave(ids, expected: count, afterSaved: " (u brings them back)") { _ in
                "the delete of \(ids.count) \(name) objects" + (others > 0 ? " and \(others) related" : "")
            }
            if deleted { self.table.selection.subtract(ids) }
        })
    }
}
