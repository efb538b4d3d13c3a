import Quarry

/// How an entity's table was left: its query (sort, filter, sections), columns (widths and
/// hidden ones), column scroll, cursor and collapsed sections. Switching entity with `Tab` and
/// back restores it.
@MainActor
struct EntityView {
    /// The query: sort, sections, filter.
    var query: TableQuery
    /// The columns as they were (widths, hidden ones, order).
    var columns: [ColumnSpec]
    /// The column cursor and scroll, and whether the first column stayed while scrolling.
    var columnView: ColumnView
    /// The object under the cursor.
    var cursorID: ObjectID?
    /// The collapsed sections, by name.
    var collapsedSections: Set<String>
}

extension Browser {
    /// The view of the table shown now.
    var currentEntityView: EntityView {
        EntityView(query: table.query, columns: table.columns, columnView: columnView, cursorID: table.cursorID,
                   collapsedSections: table.collapsedSections)
    }

    /// Puts `view` back on the table (just fetched with `view.query`): columns, collapsed
    /// sections, cursor and column scroll.
    func restore(_ view: EntityView) {
        // The same columns (the model did not change meanwhile): widths, order and hidden ones.
        if Set(view.columns.map(\.source)) == Set(table.columns.map(\.source)) {
            table.columns = view.columns
        }
        table.restoreCollapsedSections(view.collapsedSections)
        columnView = view.columnView
        if let id = view.cursorID, let index = table.displayIndex(of: id) { table.moveCursor(to: index) }
        keepColumnCursorVisible()
    }

    /// Shows entity `name`, as it was left when it was shown before (else by its default
    /// order), then puts the cursor on `target` when given (its detail page when the table
    /// does not hold it). The query runs off the main queue (Esc cancels).
    func switchEntity(to name: String, showing target: ObjectID? = nil) {
        guard let entity = stack.model.entity(named: name) else { return }
        let saved = entityViews[name]
        let query = saved?.query ?? TableQuery(entityName: name, sort: BrowserConfiguration.defaultSort(for: entity), sectionKey: nil, filter: nil)
        let leaving = currentEntityView
        do {
            try startFetch(query, label: "loading \(name)", around: target) { [weak self] error in
                guard let self else { return }
                switch error {
                case nil:
                    // A relationship's table is not its entity's view; picking an entity leaves it.
                    if leaving.query.scope == nil { self.entityViews[leaving.query.entityName] = leaving }
                    self.scopeReturns = []
                    self.columnView.cursor = 0
                    self.columnView.firstColumn = 0
                    if let saved { self.restore(saved) }
                    self.message = ("showing \(name)" + (saved == nil ? "" : " as you left it"), false)
                    if let target { self.show(target) }
                case QueryCancellationError.cancelled?: self.message = ("cancelled; still showing \(self.table.entity.name)", false)
                case let error?: self.message = ("cannot show \(name): \(error)", true)
                }
            }
        } catch {
            message = ("cannot show \(name): \(error)", true)
        }
    }
}
