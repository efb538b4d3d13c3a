import Quarry
import QuarryTUI

extension Browser {
    /// Enter on a to-many relationship of a detail page: the table shows every object of it
    /// (a fetched-results controller whose predicate is the inverse pointing at the object),
    /// live and with every browser key; Esc on the table goes back to where it was opened.
    func openRelationshipTable(entity name: String, scope: TableScope) {
        guard let entity = stack.model.entity(named: name) else { return }
        let query = TableQuery(entityName: name, sort: BrowserConfiguration.defaultSort(for: entity), sectionKey: nil, filter: nil, scope: scope)
        let leaving = currentEntityView
        let pages = overlay
        overlay = nil
        do {
            try startFetch(query, label: "opening \(scope.title)") { [weak self] error in
                guard let self else { return }
                switch error {
                case nil:
                    self.scopeReturns.append((leaving, pages))
                    self.columnView.cursor = 0
                    self.columnView.firstColumn = 0
                    self.message = ("\(scope.title): \(self.table.rowCount) \(name) objects (Esc goes back)", false)
                case QueryCancellationError.cancelled?:
                    self.message = ("cancelled", false)
                case let error?:
                    self.message = ("cannot open \(scope.title): \(error)", true)
                }
            }
        } catch {
            message = ("cannot open \(scope.title): \(error)", true)
        }
    }

    /// Esc on a relationship's table: back to the table (and detail pages) it was opened from.
    func closeRelationshipTable() {
        guard let (view, pages) = scopeReturns.last else { return }
        do {
            try startFetch(view.query, label: "going back") { [weak self] error in
                guard let self else { return }
                switch error {
                case nil:
                    self.scopeReturns.removeLast()
                    self.restore(view)
                    self.overlay = pages
                case QueryCancellationError.cancelled?: self.message = ("cancelled", false)
                case let error?: self.message = ("cannot go back: \(error)", true)
                }
            }
        } catch {
            message = ("cannot go back: \(error)", true)
        }
    }
}
