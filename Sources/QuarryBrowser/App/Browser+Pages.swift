import Foundation
import Quarry
import QuarryTUI

extension Browser {
    /// How many of the newest transactions the history view lists.
    static let historyLimit = 200

    /// `m`: the model of the entity shown (attributes with types and flags, relationships with
    /// destination, inverse and delete rule, indexes, constraints), as `quarry model` prints it.
    func openSchema() {
        overlay = .text([ListPage.schema(of: table.entity, model: stack.model)])
    }

    /// `H`: the store's newest transactions (time, author, counts), newest first; Enter on one
    /// lists its changes, Enter on a change shows its object.
    func openHistory() {
        guard let store = stack.historyStore else {
            message = ("this store records no persistent history", true)
            return
        }
        do {
            overlay = .text([try Self.historyPage(store: store, model: stack.model, name: objectNamer)])
        } catch {
            message = ("cannot read the history: \(error)", true)
        }
    }

    /// Names an object of the main context by its display key (``describe(_:)``), for the
    /// history's and `:since`'s lists.
    var objectNamer: @MainActor (ObjectID) -> String {
        let context = stack.mainContext
        return { [weak self] id in self?.describe(context.object(with: id)) ?? "\(id)" }
    }

    /// The page of the newest transactions of `store`.
    /// `name` names a changed object (by its display key) on the changes pages.
    static func historyPage(store: any PersistentHistoryStore, model: ManagedObjectModel,
                            name: @escaping @MainActor (ObjectID) -> String) throws -> ListPage {
        let newest = try store.currentHistoryToken()?.value ?? 0
        let found = try store.history(after: HistoryToken(max(0, newest - Int64(historyLimit))), limit: historyLimit)
        var page = ListPage(title: "History (newest first)", entries: [], footer: "↑↓ move · Enter changes › · Esc close")
        if found.transactions.isEmpty { page.entries = [.init(label: "no transactions recorded yet")] }
        for transaction in found.transactions.reversed() {
            let line = HistorySummary(transaction, model: model)
            page.targets[page.entries.count] = .page { changesPage(transaction, model: model, name: name) }
            page.entries.append(.init(label: ControlEscaping.escaped("\(line.token)  \(line.time)  \(line.author)"), value: line.counts, isLink: true))
        }
        return page
    }

    /// The page of one transaction's changes: each object, named by `name` (its display key)
    /// unless it was deleted, with what happened to it.
    static func changesPage(_ transaction: HistoryTransaction, model: ManagedObjectModel, name: @MainActor (ObjectID) -> String) -> ListPage {
        var page = ListPage(title: "Transaction \(transaction.token)", entries: [], footer: "↑↓ move · Enter show the object · Esc back")
        for change in transaction.changes {
            let entity = SinceView.entityName(of: change.objectID, in: model)
            var value = change.type.rawValue
            if !change.changedKeys.isEmpty { value += ": " + change.changedKeys.joined(separator: ", ") }
            if change.type != .delete { page.targets[page.entries.count] = .object(change.objectID) }
            let label = change.type == .delete ? "\(entity) \(change.objectID)" : ControlEscaping.escaped(name(change.objectID))
            page.entries.append(.init(label: label, value: ControlEscaping.escaped(value), isLink: change.type != .delete))
        }
        if transaction.changes.isEmpty { page.entries = [.init(label: "no changes")] }
        return page
    }

    /// Keys over a stack of list pages.
    func handlePagesKey(_ key: Key, pages: [ListPage]) {
        guard var page = pages.last else { overlay = nil; return }
        var pages = pages
        let last = max(0, page.entries.count - 1)
        switch key {
        case .escape, .backspace, .character("q"):
            pages.removeLast()
            overlay = pages.isEmpty ? nil : .text(pages)
            return
        case _ where key == page.closeKey:
            overlay = nil
            return
        case .character("x") where page.since != nil:
            beginSinceExport(pages)
            return
        case .down, .character("j"): page.selected = min(last, page.selected + 1)
        case .up, .character("k"): page.selected = max(0, page.selected - 1)
        case .pageDown, .character(" "): page.selected = min(last, page.selected + 10)
        case .pageUp: page.selected = max(0, page.selected - 10)
        case .home, .character("g"): page.selected = 0
        case .end, .character("G"): page.selected = last
        case .enter:
            switch page.targets[page.selected] {
            case nil: message = ("nothing to open here", true)
            case .page(let make)?:
                do {
                    pages.append(try make())
                    overlay = .text(pages)
                } catch {
                    message = ("cannot open it: \(error)", true)
                }
            case .object(let id)?:
                overlay = nil
                // Esc on the table comes back to this list.
                pagesReturn = pages
                show(id)
            }
            return
        default: return
        }
        pages[pages.count - 1] = page
        overlay = .text(pages)
    }

    /// Shows the object `id`: the cursor on its row when the table (with its filter) holds it,
    /// else its detail page.
    func show(_ id: ObjectID) {
        if let path = table.controller.indexPath(forObjectID: id) {
            table.reveal(path)
            return
        }
        let model = stack.model
        if model.entities.indices.contains(Int(id.entityIndex)), case let entity = model.entities[Int(id.entityIndex)],
           entity.name != table.entity.name, !entity.isAbstract {
            switchEntity(to: entity.name, showing: id)
            return
        }
        showDetail(id)
    }

    /// Opens the detail page of `id`.
    func showDetail(_ id: ObjectID) {
        do {
            overlay = .detail([try DetailPage(objectID: id, context: stack.mainContext)])
        } catch {
            message = ("cannot open the object: \(error)", true)
        }
    }
}
