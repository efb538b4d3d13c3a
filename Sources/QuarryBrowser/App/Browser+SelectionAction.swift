import Quarry

extension Browser {
    /// Enter on a table row: the configured ``SelectionAction`` on the row under the cursor.
    func performSelectionAction() {
        guard let id = table.cursorID else { return }
        switch configuration.selectionAction {
        case .openDetail:
            showDetail(id)
        case .edit:
            if configuration.isReadOnly { showDetail(id) } else { beginEdit(new: false) }
        case .follow(let relationship):
            follow(relationship, of: id)
        case .custom(let body):
            body(id)
        }
    }

    /// Follows `relationship` of the object `id` as Enter on it in its detail page does.
    private func follow(_ relationship: String, of id: ObjectID) {
        let page: DetailPage
        do {
            page = try DetailPage(objectID: id, context: stack.mainContext)
        } catch {
            message = ("cannot open the object: \(error)", true)
            return
        }
        guard let entry = page.relationshipEntries[relationship] else {
            overlay = .detail([page])  // another entity shown (Tab): its detail page
            return
        }
        if let table = page.tables[entry] {
            openRelationshipTable(entity: table.entity, scope: table.scope)
        } else if let target = page.links[entry] {
            showDetail(target)
        } else if stack.mainContext.object(with: id).entity.relationships.first(where: { $0.name == relationship })?.isToMany != true {
            message = ("\(relationship): none", false)
        } else {
            var shown = page
            shown.selected = entry
            overlay = .detail([shown])
        }
    }
}
