/// How the entities and properties of a destination model correspond to a source model's:
/// the mapping Core Data's inferred mapping model infers.
///
/// An entity or property matches the one of the source model whose renaming identifier (its
/// `renamingIdentifier`, or its name when it has none) equals its own renaming identifier (or
/// name); failing that, the one whose *name* equals it. Each source item matches at most once.
/// A relationship matches only when its destination entity maps to the old destination (or an
/// entity of the old destination's inheritance tree); otherwise it counts as removed and added.
struct ModelMapping: Sendable {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    /// Per destination entity index: the matching source entity's index (`nil`: added).
    let entitySource: [Int?]
    /// Per destination entity index, per attribute index: the matching attribute's index in the
    /// source entity (`nil`: added, or the entity was added).
    let attributeSource: [[Int?]]
    /// Per destination entity index, per relationship index: the matching relationship's index
    /// in the source entity.
    let relationshipSource: [[Int?]]
    /// Per source entity index: the destination entity's index (`nil`: removed).
    let entityDestination: [Int?]

    init(source: ManagedObjectModel, destination: ManagedObjectModel) {
        self.source = source
        self.destination = destination
        let entitySource = Self.match(
            destination.entities.map { ($0.name, $0.definition.renamingIdentifier) },
            source.entities.map { ($0.name, $0.definition.renamingIdentifier) })
        var entityDestination = [Int?](repeating: nil, count: source.entities.count)
        for (d, s) in entitySource.enumerated() { if let s { entityDestination[s] = d } }
        self.entitySource = entitySource
        self.entityDestination = entityDestination
        var attributeSource: [[Int?]] = []
        var relationshipSource: [[Int?]] = []
        for entity in destination.entities {
            guard let s = entitySource[entity.index] else {
                attributeSource.append(entity.attributes.map { _ in nil })
                relationshipSource.append(entity.relationships.map { _ in nil })
                continue
            }
            let old = source.entities[s]
            attributeSource.append(Self.match(
                entity.attributes.map { ($0.name, $0.renamingIdentifier) },
                old.attributes.map { ($0.name, $0.renamingIdentifier) }))
            var relationships = Self.match(
                entity.relationships.map { ($0.name, $0.renamingIdentifier) },
                old.relationships.map { ($0.name, $0.renamingIdentifier) })
            for (i, r) in entity.relationships.enumerated() {
                guard let j = relationships[i] else { continue }
                let newDestination = destination.entity(named: r.destination)!
                let oldDestination = source.entity(named: old.relationships[j].destination)!
                let mapped = entitySource[newDestination.index].map { source.entities[$0] }
                if mapped?.rootIndex != oldDestination.rootIndex { relationships[i] = nil }
            }
            relationshipSource.append(relationships)
        }
        self.attributeSource = attributeSource
        self.relationshipSource = relationshipSource
    }

    /// For each new item, the index of the old item it matches (see the type's documentation).
    static func match(_ new: [(name: String, renaming: String?)], _ old: [(name: String, renaming: String?)]) -> [Int?] {
        var taken = Set<Int>()
        var result = [Int?](repeating: nil, count: new.count)
        var byIdentifier: [String: Int] = [:]
        var byName: [String: Int] = [:]
        for (i, o) in old.enumerated() {
            if byIdentifier[o.renaming ?? o.name] == nil { byIdentifier[o.renaming ?? o.name] = i }
            byName[o.name] = i
        }
        // Two passes: identifier matches first, so a renamed item never steals an unchanged one.
        for (i, n) in new.enumerated() {
            if let j = byIdentifier[n.renaming ?? n.name], !taken.contains(j) { result[i] = j; taken.insert(j) }
        }
        for (i, n) in new.enumerated() where result[i] == nil {
            if let j = byName[n.renaming ?? n.name], !taken.contains(j) { result[i] = j; taken.insert(j) }
        }
        return result
    }

    /// The source attribute matching attribute `attribute` of destination entity `entity`.
    func sourceAttribute(_ entity: Int, _ attribute: Int) -> AttributeDescription? {
        guard let s = entitySource[entity], let a = attributeSource[entity][attribute] else { return nil }
        return source.entities[s].attributes[a]
    }

    /// The source attribute that attribute `attribute` of destination entity `entity` maps to,
    /// when the two are stored and no ``AttributeConversion`` keeps every value between their
    /// types (the migration must be refused); `nil` otherwise.
    func lossyTypeChange(_ entity: Int, _ attribute: Int) -> AttributeDescription? {
        let new = destination.entities[entity].attributes[attribute]
        guard !new.isTransient, let old = sourceAttribute(entity, attribute), !old.isTransient,
              AttributeConversion(from: old.type, to: new.type) == nil else { return nil }
        return old
    }

    /// Every source entity no destination entity matches.
    var removedEntities: [EntityDescription] {
        source.entities.filter { entityDestination[$0.index] == nil }
    }

    /// Whether the two models describe the same storage under the same names (nothing to do).
    var isIdentity: Bool { source.versionHash == destination.versionHash }
}
