/// What one file column feeds: an attribute, or a to-one relationship found by one of its
/// destination's attributes (`sector.name`).
enum ImportColumnTarget {
    /// Attribute `index` of the imported entity.
    case attribute(index: Int)
    /// To-one relationship `index`, whose destination is found by attribute `keyIndex`.
    case relationship(index: Int, destination: EntityDescription, keyIndex: Int)
    /// The column fits nothing: the message says why.
    case unknown(String)
}

/// How the columns of a file map onto an entity, resolved as column names appear.
///
/// A column maps to the attribute of its name unless the mapping renames it (column →
/// attribute or key path). A key path `relationship.attribute` names a to-one relationship and
/// the destination attribute that identifies the object. Transient attributes and to-many
/// relationships cannot be imported; two columns feeding one property is an error.
struct ImportColumnPlan {
    let entity: EntityDescription
    let model: ManagedObjectModel
    let mapping: [String: String]
    /// One target per resolved column, in the reader's column order.
    private(set) var targets: [ImportColumnTarget] = []
    /// The column (index) feeding each attribute / relationship, to catch a second one.
    private var attributeColumn: [Int: Int] = [:]
    private var relationshipColumn: [Int: Int] = [:]

    init(entity: EntityDescription, model: ManagedObjectModel, mapping: [String: String]) {
        self.entity = entity
        self.model = model
        self.mapping = mapping
    }

    /// Resolves the columns in `names` not resolved yet.
    mutating func resolve(_ names: [String]) {
        while targets.count < names.count {
            let column = targets.count
            targets.append(target(for: names[column], column: column))
        }
    }

    private mutating func target(for column: String, column index: Int) -> ImportColumnTarget {
        let key = mapping[column] ?? column
        let renamed = key == column ? "" : " (mapped to '\(key)')"
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 {
            guard let a = entity.attributeIndex(key) else {
                if entity.relationshipIndex(key) != nil {
                    return .unknown("column '\(column)'\(renamed) names relationship '\(key)': give a key path such as '\(key).name'")
                }
                return .unknown("unknown column '\(column)'\(renamed): entity '\(entity.name)' has no attribute '\(key)'")
            }
            guard !entity.attributes[a].isTransient else { return .unknown("column '\(column)'\(renamed): '\(key)' is transient and cannot be imported") }
            if let other = attributeColumn[a] { return .unknown("column '\(column)'\(renamed) feeds '\(key)' as column \(other + 1) does") }
            attributeColumn[a] = index
            return .attribute(index: a)
        }
        guard parts.count == 2, let r = entity.relationshipIndex(parts[0]) else {
            return .unknown("unknown column '\(column)'\(renamed): entity '\(entity.name)' has no to-one relationship '\(parts[0])' (key paths are relationship.attribute)")
        }
        let relationship = entity.relationships[r]
        guard !relationship.isToMany else { return .unknown("column '\(column)'\(renamed): '\(parts[0])' is to-many; only to-one relationships can be imported") }
        let destination = model.destination(of: entity, relationship: r)
        guard let k = destination.attributeIndex(parts[1]), !destination.attributes[k].isTransient else {
            return .unknown("column '\(column)'\(renamed): entity '\(destination.name)' has no stored attribute '\(parts[1])'")
        }
        if let other = relationshipColumn[r] { return .unknown("column '\(column)'\(renamed) feeds '\(parts[0])' as column \(other + 1) does") }
        relationshipColumn[r] = index
        return .relationship(index: r, destination: destination, keyIndex: k)
    }

    /// Required attributes (no default) and required to-one relationships no column feeds:
    /// with fixed columns (CSV) every row would lack them.
    var uncoveredRequirements: [String] {
        var missing: [String] = []
        for (a, attribute) in entity.attributes.enumerated()
        where !attribute.isOptional && !attribute.isTransient && attribute.defaultValue == nil && attributeColumn[a] == nil {
            missing.append("required attribute '\(attribute.name)' has no column")
        }
        for (r, relationship) in entity.relationships.enumerated()
        where !relationship.isOptional && !relationship.isToMany && relationshipColumn[r] == nil {
            missing.append("required relationship '\(relationship.name)' has no column (give a key path such as '\(relationship.name).name')")
        }
        return missing
    }
}
