import Quarry
import QuarryTUI

/// One page of a stack of lists drawn over the table: the schema view (`m`), the history view
/// (`H`) and a transaction's changes. Enter on an entry with a target opens another page or
/// jumps to an object; Esc goes back a page.
@MainActor
struct ListPage {
    /// Where Enter on an entry leads.
    enum Target {
        /// Another page, made when it is opened.
        case page(@MainActor () throws -> ListPage)
        /// An object: the browser shows its entity with the cursor on it.
        case object(ObjectID)
    }

    /// The box title.
    var title: String
    /// The entries.
    var entries: [ListOverlay.Entry]
    /// The selected entry (the list's cursor; for a page without targets it scrolls the text).
    var selected = 0
    /// What each entry with a target leads to, by entry index.
    var targets: [Int: Target] = [:]
    /// The key hints at the bottom.
    var footer: String
    /// A key that closes the page besides Esc (the key that opened it: `m`).
    var closeKey: Key? = nil
    /// The `:since` view this page shows, remade from it as changes arrive.
    var since: SinceView? = nil

    /// The page as a widget.
    var view: ListOverlay { ListOverlay(title: title, entries: entries, selected: selected, footer: footer) }

    /// The schema view of `entity`: `quarry model`'s description of it, one entry a line.
    static func schema(of entity: EntityDescription, model: ManagedObjectModel) -> ListPage {
        let lines = ModelDescriptionText(source: "", model: model).lines(for: entity)
        return ListPage(title: "Model of \(entity.name)", entries: lines.map { ListOverlay.Entry(label: $0) },
                        footer: "↑↓ scroll · Esc close", closeKey: .character("m"))
    }
}
