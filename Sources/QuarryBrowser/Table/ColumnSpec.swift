import Quarry
import QuarryTUI

/// One column of the browser's table: where its values come from and how it is shown.
///
/// Not `Hashable`: its ``format`` may hold a closure.
struct ColumnSpec: Sendable {
    /// Where a column's values come from.
    enum Source: Hashable, Sendable {
        /// A stored attribute of the entity.
        case attribute(name: String, type: AttributeType)
        /// A to-one relationship, shown as the related object's `displayKey` (or its URI when nil).
        case toOne(relationship: String, displayKey: String?)
    }

    /// The header text.
    var title: String
    /// Where the values come from.
    var source: Source
    /// Width in cells.
    var width: Int
    /// Numbers right, text left.
    var alignment: TextAlignment
    /// Hidden with `-`.
    var isHidden = false
    /// Set by `<` and `>`: the width no longer follows the content.
    var isWidthFixed = false
    /// Whether the width was fitted to content at least once (it may then only grow, so the
    /// columns do not jump while scrolling).
    var isFitted = false
    /// How cells are shown instead of their default text (``BrowserConfiguration/cellFormats``).
    var format: CellFormat?

    /// The widest a column grows to fit its content.
    static let maximumFittedWidth = 40

    /// Fits the width to `cells` (the visible rows' texts) and the header, at most
    /// ``maximumFittedWidth``: the first time to exactly that, then only wider.
    mutating func fit(to cells: [String], header: String) {
        guard !isWidthFixed else { return }
        var widest = DisplayWidth.of(header)
        for cell in cells {
            // Control characters are drawn escaped (`^[`): measured as drawn.
            let drawn = ControlEscaping.containsControls(cell) ? ControlEscaping.escaped(cell) : cell
            widest = max(widest, DisplayWidth.of(drawn))
        }
        let fitted = min(Self.maximumFittedWidth, max(3, widest))
        width = isFitted ? max(width, fitted) : fitted
        isFitted = true
    }

    /// The column's key: its attribute's or to-one relationship's name.
    var key: String {
        switch source {
        case .attribute(let name, _): return name
        case .toOne(let relationship, _): return relationship
        }
    }

    /// The key path to sort or search by for this column (`price`, `sector.name`), if it has one.
    var sortKeyPath: String? {
        switch source {
        case .attribute(let name, let type): return type == .binary || type == .transformable ? nil : name
        case .toOne(let relationship, let displayKey): return displayKey.map { "\(relationship).\($0)" }
        }
    }

    /// The columns for `entity`: the columns of `leading` key paths first (the sort key), then the
    /// display key, then the other stored attributes in model order, then the to-one relationships.
    /// A column whose key (attribute or relationship name) has a format in `formats` for
    /// `entity` gets it.
    static func columns(for entity: EntityDescription, model: ManagedObjectModel, leading: [String],
                        formats: [CellFormatKey: CellFormat] = [:]) -> [ColumnSpec] {
        var all = columns(for: entity, model: model)
        for index in all.indices { all[index].format = formats[CellFormatKey(entity: entity.name, column: all[index].key)] }
        let display = displayKey(of: entity)
        var order = leading.compactMap { key in all.firstIndex { $0.sortKeyPath == key } }
        if let display, let index = all.firstIndex(where: { $0.sortKeyPath == display }), !order.contains(index) { order.append(index) }
        for index in all.indices where !order.contains(index) { order.append(index) }
        return order.map { all[$0] }
    }

    /// The columns for `entity`: its stored attributes in model order, then its to-one relationships.
    static func columns(for entity: EntityDescription, model: ManagedObjectModel) -> [ColumnSpec] {
        var result: [ColumnSpec] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let width = max(ValueText.defaultWidth(for: attribute.type), min(DisplayWidth.of(attribute.name) + 2, 24))
            result.append(ColumnSpec(title: attribute.name, source: .attribute(name: attribute.name, type: attribute.type),
                                     width: width, alignment: ValueText.isNumeric(attribute.type) ? .trailing : .leading))
        }
        for (index, relationship) in entity.relationships.enumerated() where !relationship.isToMany {
            let destination = model.destination(of: entity, relationship: index)
            result.append(ColumnSpec(title: relationship.name,
                                     source: .toOne(relationship: relationship.name, displayKey: displayKey(of: destination)),
                                     width: 18, alignment: .leading))
        }
        return result
    }

    /// The attribute that names an object of `entity` in lists: `name`, `title`, `symbol`, else
    /// the first string attribute.
    static func displayKey(of entity: EntityDescription) -> String? {
        let strings = entity.attributes.filter { !$0.isTransient && $0.type == .string }.map(\.name)
        for preferred in ["name", "title", "symbol", "label"] where strings.contains(preferred) { return preferred }
        return strings.first
    }

    /// The text of this column for `object` (related objects are faulted in as needed), with
    /// the column's ``format`` applied.
    func text(for object: ManagedObject) -> String {
        let cellValue = value(for: object)
        let text = cellValue.map(ValueText.format) ?? ""
        guard let format else { return text }
        return format.text(for: cellValue ?? .null, defaultText: text)
    }

    /// The value behind this column's cell for `object`: an attribute's value, a related
    /// object's display-key value (its object ID's text without a display key); `nil` when
    /// there is none or it cannot be read.
    private func value(for object: ManagedObject) -> Value? {
        switch source {
        case .attribute(let name, _):
            return try? object.displayValue(forKey: name)
        case .toOne(let relationship, let displayKey):
            guard let related = try? object.object(forKey: relationship) else { return nil }
            guard let displayKey else { return .string(related.objectID.description) }
            return try? related.value(forKey: displayKey)
        }
    }
}
