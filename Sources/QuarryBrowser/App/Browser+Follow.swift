import Quarry
import QuarryTUI

/// Following a to-one cell to the object it names, in its own entity's table, and coming back
/// (`Backspace`, `Ctrl-O`) to exactly where the hop started: entity, filter, sort, collapsed
/// sections, column scroll and cursor.
extension Browser {
    /// Enter on a to-one cell: the destination object in its entity's table (as that table
    /// was last left), the view left pushed on the back stack. Returns `false` when the column
    /// under the cursor is not a to-one relationship (Enter then does what it does elsewhere).
    func followToOneCell() -> Bool {
        let columns = shownColumns
        guard columns.indices.contains(columnView.cursor), case .toOne(let relationship, _) = columns[columnView.cursor].source,
              let id = table.cursorID else { return false }
        let target: ObjectID?
        do {
            target = try stack.mainContext.object(with: id).objectID(forKey: relationship)
        } catch {
            message = ("cannot follow \(relationship): \(error)", true)
            return true
        }
        guard let target else {
            message = ("no \(relationship) here to follow", true)
            return true
        }
        let model = stack.model
        guard model.entities.indices.contains(Int(target.entityIndex)) else { return false }
        let entity = model.entities[Int(target.entityIndex)]
        let destination = entity.isAbstract ? table.entity.name : entity.name
        motions.push(currentEntityView)
        if destination == table.entity.name && table.query.scope == nil {
            show(target)
            message = ("on \(relationship) (Backspace goes back)", false)
        } else {
            switchEntity(to: destination, showing: target)
        }
        return true
    }

    /// `Backspace` / `Ctrl-O`: back to the view the last hop left (else out of a relationship's
    /// table, as Esc does).
    func goBack() {
        guard let view = motions.backStack.popLast() else {
            if scopeReturns.isEmpty {
                message = ("nothing to go back to", false)
            } else {
                closeRelationshipTable()
            }
            return
        }
        let leaving = currentEntityView
        do {
            try startFetch(view.query, label: "going back") { [weak self] error in
                guard let self else { return }
                switch error {
                case nil:
                    if leaving.query.scope == nil && leaving.query.entityName != view.query.entityName {
                        self.entityViews[leaving.query.entityName] = leaving
                    }
                    self.restore(view)
                    self.message = ("back to \(view.query.entityName)" + (self.motions.backStack.isEmpty ? "" : " (\(self.motions.backStack.count) more back)"), false)
                case QueryCancellationError.cancelled?:
                    self.motions.push(view)
                    self.message = ("cancelled", false)
                case let error?:
                    self.motions.push(view)
                    self.message = ("cannot go back: \(error)", true)
                }
            }
        } catch {
            motions.push(view)
            message = ("cannot go back: \(error)", true)
        }
    }
}
