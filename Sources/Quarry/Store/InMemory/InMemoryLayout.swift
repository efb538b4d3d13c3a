/// Identifies one relationship by the entity that declares it, so an inherited relationship
/// shares its storage with the parent's (the SQLite store's join tables work the same way).
struct RelationshipKey: Hashable, Sendable {
    /// The index of the declaring entity.
    var entity: Int
    /// The relationship's index (the same in the declaring entity and all its descendants).
    var relationship: Int
}

/// Where the contents of one to-many relationship live.
enum ToManyStorage: Sendable {
    /// Derived from the destination rows' to-one `inverse`; `order` keeps positions of an
    /// ordered relationship.
    case foreignKey(destination: Int, inverse: Int, order: RelationshipKey?)
    /// A join list per owner, stored under `key` (this side is the storing side).
    case join(key: RelationshipKey)
    /// The other side of a many-to-many pair: owners of the join lists under `key` that contain
    /// this object; `order` keeps positions of an ordered relationship.
    case reversedJoin(key: RelationshipKey, order: RelationshipKey?)
}

/// How the in-memory store keeps each relationship, worked out once from the model.
///
/// Matches the SQLite layout: a to-many whose inverse is to-one is read back through the
/// inverse's foreign key; a many-to-many pair is stored once, by the side whose
/// `"Entity.relationship"` name (declaring entity) sorts first; a to-many without inverse keeps
/// its own list.
struct InMemoryLayout: Sendable {
    /// Per entity, per relationship: the to-many storage (`nil` for to-one relationships).
    let toMany: [[ToManyStorage?]]

    init(model: ManagedObjectModel) {
        toMany = model.entities.map { entity in
            entity.relationships.indices.map { Self.storage(of: entity, relationship: $0, in: model) }
        }
    }

    /// The key of `relationship` of `entity`: the topmost ancestor that has it.
    static func key(of entity: EntityDescription, relationship: Int, in model: ManagedObjectModel) -> RelationshipKey {
        let name = entity.relationships[relationship].name
        var declaring = entity
        while let parentName = declaring.parentName, let parent = model.entity(named: parentName),
              parent.relationshipIndex(name) != nil {
            declaring = parent
        }
        return RelationshipKey(entity: declaring.index, relationship: relationship)
    }

    private static func storage(of entity: EntityDescription, relationship r: Int,
                                in model: ManagedObjectModel) -> ToManyStorage? {
        let rel = entity.relationships[r]
        guard rel.isToMany else { return nil }
        let own = key(of: entity, relationship: r, in: model)
        guard let destination = model.entity(named: rel.destination),
              let inverseName = rel.inverse, let inverse = destination.relationshipIndex(inverseName)
        else { return .join(key: own) }
        guard destination.relationships[inverse].isToMany else {
            return .foreignKey(destination: destination.index, inverse: inverse, order: rel.isOrdered ? own : nil)
        }
        let other = key(of: destination, relationship: inverse, in: model)
        if other == own || name(of: own, in: model) <= name(of: other, in: model) { return .join(key: own) }
        return .reversedJoin(key: other, order: rel.isOrdered ? own : nil)
    }

    private static func name(of key: RelationshipKey, in model: ManagedObjectModel) -> String {
        let entity = model.entities[key.entity]
        return "\(entity.name).\(entity.relationships[key.relationship].name)"
    }
}
