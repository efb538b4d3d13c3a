import Quarry
import QuarryTUI

extension Browser {
    /// `e` (edit the row) or `a` (add an object): opens a form in a new creator context.
    func beginEdit(new: Bool) {
        guard !configuration.isReadOnly else {
            message = ("read-only: editing is disabled", true)
            return
        }
        guard new || table.cursorID != nil else {
            message = ("no row to edit", true)
            return
        }
        do {
            overlay = .form(try EditSession(stack: stack, entityName: table.entity.name, id: new ? nil : table.cursorID))
            followEditedRow()
        } catch {
            message = ("cannot edit: \(error)", true)
        }
    }

    /// The edit form open (or under a question), if any.
    var openSession: EditSession? {
        switch overlay {
        case .form(let session): return session
        case .confirm(let question): return question.form
        default: return nil
        }
    }

    /// Keeps the row of the object being edited as it was when the edit began (every other row
    /// keeps following the live merge), and lets it go once no form is open on it.
    func followEditedRow() {
        guard let session = openSession, !session.isNew else { return table.unfreeze() }
        table.freeze(session.object.objectID)
        if table.onFrozenRowChange == nil {
            table.onFrozenRowChange = { [weak self] in
                guard let self, let session = self.openSession, !session.isNew else { return }
                session.changedMeanwhile = true
                self.needsDisplay()
            }
        }
    }

    func handleFormKey(_ key: Key, session: EditSession) {
        // The to-one picker, when open, takes every key but Ctrl-S (Esc closes it, not the form).
        if session.picker != nil, key != .control("s") {
            _ = session.handle(key)
            return
        }
        switch key {
        case .control("s"):
            guard let report = session.save() else { return }
            edits.recordSaved(session.context, name: "the \(session.isNew ? "add" : "edit") of \(describe(session.object))")
            overlay = nil
            if let index = table.displayIndex(of: report.objectID) { table.moveCursor(to: index) }
            if report.conflicts.isEmpty {
                message = (session.isNew ? "added; saved to disk" : "saved to disk", false)
            } else {
                message = ("saved; " + report.conflicts.joined(separator: "; "), true)
            }
        case .escape:
            if session.hasChanges && !(session.isNew && !session.fields.contains(where: \.isModified)) {
                overlay = .confirm(Confirmation(
                    title: "Unsaved edits", lines: ["Discard the edits to this \(session.object.entity.name)? (y/n)"],
                    onYes: { [weak self] in self?.message = ("edits discarded", false) },
                    onNo: { [weak self] in self?.overlay = .form(session) }, form: session))
            } else {
                overlay = nil
                message = ("nothing saved", false)
            }
        default:
            _ = session.handle(key)
        }
    }

    /// `d`: asks to delete the row, saying how many objects the delete rules remove with it.
    func confirmDelete() {
        guard deletingIsAllowed, let id = table.cursorID, let count = deleteCount(of: [id]) else { return }
        let name = table.entity.name
        let others = count - 1
        let line = others > 0
            ? "Delete this \(name) and \(others) related object\(others == 1 ? "" : "s") (delete rules)? (y/n)"
            : "Delete this \(name)? (y/n)"
        overlay = .confirm(Confirmation(title: "Delete", lines: [line]) { [weak self] in
            self?.deleteInOneSave([id], expected: count) { objects in
                "the delete of \(self?.describe(objects[0]) ?? "\(id)")" + (others > 0 ? " and \(others) related object\(others == 1 ? "" : "s")" : "")
            }
        })
    }

    /// Whether the browser may delete (not read-only); says so on the status line when not.
    var deletingIsAllowed: Bool {
        guard configuration.isReadOnly else { return true }
        message = ("read-only: deleting is disabled", true)
        return false
    }

    /// How many objects deleting `ids` removes with the delete rules (cascades included),
    /// worked out in a temporary context, which can never save; `nil` (said on the status
    /// line) when it cannot be.
    func deleteCount(of ids: [ObjectID]) -> Int? {
        let scratch = stack.temporaryContext()
        do {
            for id in ids { scratch.delete(try scratch.existingObject(with: id)) }
            scratch.processPendingChanges()
            return scratch.deleted.count
        } catch {
            message = ("cannot delete: \(error)", true)
            return nil
        }
    }

    /// Deletes `ids` (which the delete rules take to `expected` objects) in one save of a
    /// creator context, undoable as one change (`u`) that `name` names from the objects as
    /// loaded; `afterSaved` ends the status line. Returns whether the save happened; a failure
    /// changes nothing and says so.
    @discardableResult
    func deleteInOneSave(_ ids: [ObjectID], expected: Int, afterSaved: String = "",
                         name: ([ManagedObject]) -> String) -> Bool {
        let context = stack.creatorContext()
        EditHistory.prepare(context)
        do {
            let objects = try ids.map { try context.existingObject(with: $0) }
            let change = name(objects)
            for object in objects { context.delete(object) }
            try context.save()
            edits.recordSaved(context, name: change)
            message = ("deleted \(expected) object\(expected == 1 ? "" : "s"); saved to disk" + afterSaved, false)
            return true
        } catch {
            context.rollback()
            message = ("delete failed, nothing deleted: \(error)", true)
            return false
        }
    }
}
