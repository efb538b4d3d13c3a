import Quarry

/// `E` and `:set KEY = EXPRESSION, …`: attributes of the selected rows (the cursor's row
/// without a selection) set to values or expressions over each row's own attributes, in one
/// creator-context save that `u` undoes.
extension Browser {
    /// `E`: the command line, ready for `set <column under the cursor> = `.
    func openSetColumn() {
        guard !configuration.isReadOnly else {
            message = ("read-only: nothing can be set", true)
            return
        }
        let columns = shownColumns
        guard columns.indices.contains(columnView.cursor) else { return }
        guard case .attribute(let name, _) = columns[columnView.cursor].source,
              settableKeys.contains(name) else {
            message = ("E sets a stored attribute; \(columns[columnView.cursor].title) is not one (:set KEY = … names another)", true)
            return
        }
        overlay = .prompt(PromptState(kind: .command, text: "set \(name) = "))
    }

    /// The attributes `:set` can set: stored, not derived, of a type an expression can give.
    var settableKeys: [String] {
        table.entity.attributes.filter { !$0.isTransient && !$0.isDerived && $0.type != .transformable && $0.type != .undefined }.map(\.name)
    }

    /// `:set ASSIGNMENTS`: sets the attributes of the selected objects (or the cursor's), each
    /// expression reading the object as it was, in one save recorded for `u`. Returns the
    /// error, with its column within `text`, when the assignments are bad or a value is refused
    /// (then nothing changed).
    func setColumns(_ text: String) -> (message: String, column: Int?)? {
        guard !configuration.isReadOnly else { return ("read-only: nothing can be set", nil) }
        let ids = table.selection.isEmpty ? (table.cursorID.map { [$0] } ?? []) : selectedInOrder
        guard !ids.isEmpty else { return ("no row to set: put the cursor on a row or select some (v)", nil) }
        let request: BatchUpdateRequest
        do {
            request = try BatchUpdateRequest(entityName: table.entity.name, setting: text)
        } catch let error as QueryError {
            return (error.description, Self.column(of: error, in: text))
        } catch {
            return ("\(error)", nil)
        }
        let keys = request.propertiesToUpdate.map(\.key)
        let what = "\(keys.joined(separator: ", ")) of \(ids.count) \(table.entity.name) object\(ids.count == 1 ? "" : "s")"
        let context = stack.creatorContext()
        EditHistory.prepare(context)
        do {
            let objects = try ids.map { try context.existingObject(with: $0) }
            try request.apply(to: objects)
            try context.save()
        } catch let error as BatchRequestError {
            context.rollback()
            return ("nothing set: \(error)", Self.column(of: error, in: text))
        } catch {
            context.rollback()
            return ("set failed, nothing changed: \(error)", nil)
        }
        edits.recordSaved(context, name: "the set of \(what)")
        message = ("set \(what); saved to disk (u undoes)", false)
        return nil
    }

    /// Where in `text` the key a batch-request error names is written (1-based), if it is.
    private static func column(of error: BatchRequestError, in text: String) -> Int? {
        let key: String
        switch error {
        case .invalidKey(_, let k, _), .invalidExpression(_, let k, _, _), .invalidValue(_, let k, _, _, _): key = k
        default: return nil
        }
        return column(of: key, in: text)
    }
}
