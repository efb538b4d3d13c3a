import Quarry
import QuarryTUI

/// The picker of a to-one field in an edit form (Enter on the field): the destination's
/// objects whose display key contains the text typed, sorted by it, at most ``limit``;
/// typing narrows, ↑/↓ choose, Enter sets the field, Esc closes.
@MainActor
struct ToOnePicker {
    /// The most objects listed at once.
    static let limit = 50

    /// The form field it sets.
    let field: Int
    /// The destination entity and the key that names its objects.
    let destination: (entity: String, displayKey: String)
    /// The text narrowing the list.
    var query: EditableText
    /// The objects listed, with their names.
    private(set) var candidates: [(id: ObjectID, name: String)] = []
    /// Whether more objects match than are listed.
    private(set) var hasMore = false
    /// The candidate chosen with ↑/↓.
    var selected = 0
    /// Why the list could not be read, if it could not.
    private(set) var error: String?

    /// A picker for `field`, its list read from `context`: unfiltered, with the field's current
    /// value `text` selected (listed first when it is not among the first ``limit``).
    init(field: Int, destination: (entity: String, displayKey: String), text: String, context: ObjectContext) {
        self.field = field
        self.destination = destination
        self.query = EditableText("")
        refresh(in: context)
        guard !text.isEmpty else { return }
        if let index = candidates.firstIndex(where: { $0.name == text }) {
            selected = index
        } else if let current = Self.object(named: text, destination: destination, in: context) {
            candidates.insert((current, text), at: 0)
            selected = 0
        }
    }

    /// The object of `destination` whose display key is `name`, if there is one.
    private static func object(named name: String, destination: (entity: String, displayKey: String), in context: ObjectContext) -> ObjectID? {
        do {
            var request = FetchRequest(entityName: destination.entity,
                                       predicate: try ObjectPredicate(format: "%K == %@", .value(.string(destination.displayKey)), .value(.string(name))))
            request.fetchLimit = 1
            return try context.fetchObjectIDs(request).first
        } catch {
            return nil  // the list still opens, unfiltered, without the current value first
        }
    }

    /// Reads the list again for the current query.
    mutating func refresh(in context: ObjectContext) {
        do {
            let text = query.text
            let predicate = text.isEmpty ? nil
                : try ObjectPredicate(format: "%K CONTAINS[cd] %@", .value(.string(destination.displayKey)), .value(.string(text)))
            var request = FetchRequest(entityName: destination.entity, predicate: predicate, sortDescriptors: [SortKey(destination.displayKey)])
            request.fetchLimit = Self.limit + 1
            let found = try context.fetch(request)
            hasMore = found.count > Self.limit
            candidates = found.prefix(Self.limit).map { object in
                (object.objectID, ValueText.format((try? object.value(forKey: destination.displayKey)) ?? .null))
            }
            error = nil
        } catch {
            candidates = []
            hasMore = false
            self.error = "\(error)"
        }
        selected = min(selected, max(0, candidates.count - 1))
    }

    /// The picker as a list drawn over the form.
    var view: ListOverlay {
        var entries = candidates.map { ListOverlay.Entry(label: $0.name) }
        if hasMore { entries.append(.init(label: "… more: type to narrow")) }
        if candidates.isEmpty { entries.append(.init(label: error ?? "no \(destination.entity) contains \"\(query.text)\"")) }
        return ListOverlay(title: "\(destination.entity): \(query.text)▏", entries: entries,
                           selected: candidates.isEmpty ? nil : selected, footer: "type to narrow · ↑↓ choose · Enter set · Esc close")
    }
}
