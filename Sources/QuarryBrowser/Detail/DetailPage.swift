import Quarry
import QuarryTUI

/// One page of the detail view: an object's attributes and relationships; related objects can be
/// followed with Enter (a stack of pages; Esc goes back).
@MainActor
struct DetailPage {
    /// The object shown.
    let objectID: ObjectID
    /// The list entries.
    let entries: [ListOverlay.Entry]
    /// The object each link entry leads to.
    let links: [Int: ObjectID]
    /// The table each to-many heading opens (Enter): its destination's objects whose inverse
    /// points at this object.
    let tables: [Int: (entity: String, scope: TableScope)]
    /// The entry of each relationship, by name: a to-one's link (or its `(none)`), a to-many's heading.
    let relationshipEntries: [String: Int]
    /// The title.
    let title: String
    /// The selected entry.
    var selected: Int

    /// How many related objects of a to-many relationship the page lists.
    static let toManyLimit = 200

    /// Builds the page for `id` from `context` (faulting the object and the related objects listed).
    init(objectID id: ObjectID, context: ObjectContext) throws {
        let object = try context.existingObject(with: id)
        let entity = object.entity
        let model = context.model
        var entries: [ListOverlay.Entry] = []
        var links: [Int: ObjectID] = [:]
        var tables: [Int: (entity: String, scope: TableScope)] = [:]
        var relationshipEntries: [String: Int] = [:]
        let objectName: String = {
            let text = ColumnSpec.displayKey(of: entity).flatMap { try? object.value(forKey: $0) }.map(ValueText.format) ?? ""
            return text.isEmpty ? id.description : text
        }()
        for attribute in entity.attributes where !attribute.isTransient {
            entries.append(.init(label: attribute.name, value: ValueText.format((try? object.displayValue(forKey: attribute.name)) ?? .null)))
        }
        for (index, relationship) in entity.relationships.enumerated() {
            let destination = model.destination(of: entity, relationship: index)
            let displayKey = ColumnSpec.displayKey(of: destination)
            func name(of related: ManagedObject) -> String {
                let text = displayKey.flatMap { try? related.value(forKey: $0) }.map(ValueText.format) ?? ""
                return text.isEmpty ? "\(destination.name) \(related.objectID)" : text
            }
            relationshipEntries[relationship.name] = entries.count
            if relationship.isToMany {
                let ids = (try? object.objectIDs(forKey: relationship.name)) ?? []
                // A to-one inverse lets the whole relationship open as a table (Enter).
                if let inverse = relationship.inverse,
                   let back = destination.relationships.first(where: { $0.name == inverse }), !back.isToMany {
                    tables[entries.count] = (destination.name, TableScope(owner: id, inverse: inverse,
                                                                          title: "\(relationship.name) of \(entity.name) \(objectName)"))
                    entries.append(.init(label: "\(relationship.name) (\(ids.count))", value: "→ \(destination.name): Enter opens all as a table", isLink: true))
                } else {
                    entries.append(.init(label: "\(relationship.name) (\(ids.count))", value: "→ \(destination.name)", isHeading: true))
                }
                let shown = ids.prefix(Self.toManyLimit).map { context.object(with: $0) }
                try? context.faultIn(shown)
                for related in shown {
                    links[entries.count] = related.objectID
                    entries.append(.init(label: "  •", value: name(of: related), isLink: true))
                }
                if ids.count > Self.toManyLimit {
                    entries.append(.init(label: "  …", value: "\(ids.count - Self.toManyLimit) more"))
                }
            } else if let related = try? object.object(forKey: relationship.name) {
                links[entries.count] = related.objectID
                entries.append(.init(label: relationship.name, value: name(of: related), isLink: true))
            } else {
                entries.append(.init(label: relationship.name, value: "(none)"))
            }
        }
        self.objectID = id
        self.entries = entries
        self.links = links
        self.tables = tables
        self.relationshipEntries = relationshipEntries
        self.title = "\(entity.name) \(objectName)"
        self.selected = Set(links.keys).union(tables.keys).min() ?? 0
    }

    /// The page as a widget.
    func view(scroll: Int) -> ListOverlay {
        ListOverlay(title: title, entries: entries, selected: selected, scroll: scroll,
                    footer: "↑↓ move · Enter follow › · Esc back")
    }
}
