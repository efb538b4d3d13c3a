import Quarry

extension Browser {
    /// `u`: undoes the browser's last saved edit, add or delete and saves the result.
    func undoEdit() {
        replayEdit(undo: true)
    }

    /// `Ctrl-R`: redoes the last undone change and saves it.
    func redoEdit() {
        replayEdit(undo: false)
    }

    private func replayEdit(undo: Bool) {
        let verb = undo ? "undo" : "redo"
        guard !configuration.isReadOnly else {
            message = ("read-only: nothing to \(verb)", true)
            return
        }
        do {
            guard let name = undo ? try edits.undo() : try edits.redo() else {
                message = ("nothing to \(verb)", false)
                return
            }
            message = ("\(undo ? "undid" : "redid") \(name); saved to disk", false)
        } catch let refusal as UndoRefusal {
            let what = refusal.actionName.isEmpty ? "" : " \(refusal.actionName)"
            let why = refusal.reason ?? refusal.conflicts.map(\.description).joined(separator: "; ")
            message = ("cannot \(verb)\(what): \(why); nothing changed", true)
        } catch {
            message = ("\(verb) failed: \(error); nothing was saved", true)
        }
    }

    /// How the status line names an object: its entity and display value ("Ticker ACME"), else
    /// its first stored string attribute with a value, else its row number.
    func describe(_ object: ManagedObject) -> String {
        let entity = object.entity
        let strings = entity.attributes.filter { !$0.isTransient && $0.type == .string }.map(\.name)
        for key in [ColumnSpec.displayKey(of: entity)].compactMap({ $0 }) + strings {
            if let value = try? object.value(forKey: key), value != .null {
                let text = ValueText.format(value)
                if !text.isEmpty { return "\(entity.name) \(text)" }
            }
        }
        return "\(entity.name) \(object.objectID.primaryKey)"
    }
}
