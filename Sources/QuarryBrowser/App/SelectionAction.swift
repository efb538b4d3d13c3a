import Quarry

/// What Enter does on a table row (``BrowserConfiguration/selectionAction``). Enter on a
/// collapsed section's header always expands the section, whatever the action.
///
/// Not `Equatable`: ``custom(_:)`` holds a closure.
public enum SelectionAction: Sendable {
    /// The row's detail page (the default).
    case openDetail
    /// The row's edit form, as `e` opens it; a read-only browser shows the detail page instead.
    case edit
    /// Follows the relationship of that name, as Enter on it in the detail page does: a to-one
    /// relationship opens the related object's page (a message when there is none), a to-many
    /// relationship with a to-one inverse opens its objects as a table (Esc goes back), another
    /// to-many the row's detail page on that relationship. On an entity without that
    /// relationship (after `Tab`), Enter opens the detail page.
    case follow(relationship: String)
    /// Calls the closure with the row's object ID, on the main actor, once per Enter.
    case custom(@MainActor @Sendable (ObjectID) -> Void)

    /// Reads a `--on-enter` value: `detail`, `edit` or `follow:RELATIONSHIP`.
    /// - Throws: ``SelectionActionError`` saying what is accepted.
    public static func parse(_ text: String) throws(SelectionActionError) -> SelectionAction {
        switch text {
        case "detail": return .openDetail
        case "edit": return .edit
        default:
            guard text.hasPrefix("follow:") else {
                throw SelectionActionError("--on-enter \(text): expected detail, edit or follow:RELATIONSHIP")
            }
            let name = String(text.dropFirst("follow:".count))
            guard !name.isEmpty else { throw SelectionActionError("--on-enter \(text): follow needs a relationship name (follow:sector)") }
            return .follow(relationship: name)
        }
    }

    /// Checks the action against the entity shown first: a followed relationship must be one of its.
    /// - Throws: ``SelectionActionError`` naming the relationship and the ones `entity` has.
    public func validate(for entity: EntityDescription) throws(SelectionActionError) {
        guard case .follow(let name) = self, !entity.relationships.contains(where: { $0.name == name }) else { return }
        let names = entity.relationships.map(\.name)
        let known = names.isEmpty ? "it has no relationships" : "it has \(names.joined(separator: ", "))"
        throw SelectionActionError("--on-enter follow:\(name): \(entity.name) has no relationship '\(name)' (\(known))")
    }
}

/// Why a ``SelectionAction`` was refused.
public struct SelectionActionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the value at fault.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
