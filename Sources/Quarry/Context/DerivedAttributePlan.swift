/// What a save must recompute for a model's derived attributes, worked out once per model
/// (kept in ``ManagedObjectModel``'s derived values): for each entity its derived attributes
/// and the properties of its own that they read, and, for key paths through relationships,
/// which properties of the objects at the far end they read and how to walk back from such an
/// object to the objects whose values depend on it (the relationships' inverses).
final class DerivedAttributePlan: Sendable {
    /// One derived attribute of one entity.
    struct Derived: Sendable {
        /// Its index in the entity's attributes.
        let attribute: Int
        let type: AttributeType
        let expression: DerivationExpression
        /// The plan of the key path it reads (`nil` for `now()`).
        let plan: KeyPathPlan?
        /// The properties of the object itself whose change makes it recompute (an attribute
        /// index, or attributes count + relationship index); empty for `now()`, which
        /// recomputes at every save of the object.
        let ownTriggers: [Int]
    }

    /// A property of objects at the far end of a derived attribute's key path.
    struct RemoteTrigger: Sendable {
        /// The entity that declares the derived attribute (its sources are of this kind).
        let sourceEntity: Int
        /// The derived attribute's index in the source entity.
        let derivedAttribute: Int
        /// The entity at the far end (its objects and its descendants' trigger).
        let entity: Int
        /// The properties of those objects whose change makes the sources recompute.
        let properties: [Int]
        /// The inverse relationships leading back to the sources: for each, the entity it
        /// belongs to and its index there, nearest first.
        let backPath: [(entity: Int, relationship: Int)]
    }

    /// Each entity's derived attributes (by ``EntityDescription/index``).
    let derivedByEntity: [[Derived]]
    let remoteTriggers: [RemoteTrigger]
    /// Whether the model has any derived attribute.
    let isEmpty: Bool
    /// The derived attributes kept by differences (``ObjectContext/DerivedDelta``).
    let deltas: [ObjectContext.DerivedDelta]

    init(model: ManagedObjectModel) {
        var derivedByEntity: [[Derived]] = []
        var remote: [RemoteTrigger] = []
        for entity in model.entities {
            var list: [Derived] = []
            for i in entity.derivedAttributeIndices {
                let attribute = entity.attributes[i]
                // Checked when the model was built; a failure here cannot happen.
                guard let (expression, plan) = try? model.derivation(of: attribute, in: entity) else { continue }
                var own: [Int] = []
                if let plan {
                    switch plan.steps.first {
                    case .toOne(let r)?, .toMany(let r)?: own = [entity.attributes.count + r]
                    case nil:
                        if case .attribute(let a) = plan.terminal { own = [a] }
                    }
                    // Only the declaring entity walks back: its descendants' objects are found
                    // by the same walk (their entity is of its kind).
                    if entity.definition.attributes.contains(where: { $0.name == attribute.name }) {
                        remote += Self.remoteTriggers(of: plan, source: entity, attribute: i, model: model)
                    }
                }
                list.append(Derived(attribute: i, type: attribute.type, expression: expression, plan: plan, ownTriggers: own))
            }
            derivedByEntity.append(list)
        }
        self.derivedByEntity = derivedByEntity
        self.remoteTriggers = remote
        self.isEmpty = derivedByEntity.allSatisfy(\.isEmpty)
        self.deltas = ObjectContext.deltaCapable(derivedByEntity: derivedByEntity, remoteTriggers: remote, model: model)
    }

    /// The triggers at each level past the first of `plan`'s path: the next step's
    /// relationship, or the attribute read at the end. A level whose way back has a
    /// relationship without an inverse is left out (its changes recompute the sources when
    /// they are saved themselves; `docs/model-constructs.md` says so).
    private static func remoteTriggers(of plan: KeyPathPlan, source: EntityDescription, attribute: Int,
                                       model: ManagedObjectModel) -> [RemoteTrigger] {
        var result: [RemoteTrigger] = []
        var backPath: [(entity: Int, relationship: Int)] = []
        for level in 1...max(1, plan.steps.count) where level <= plan.steps.count {
            let previous = plan.entities[level - 1]
            let stepRelationship: Int
            switch plan.steps[level - 1] {
            case .toOne(let r), .toMany(let r): stepRelationship = r
            }
            guard let inverse = model.inverseIndex(of: previous, relationship: stepRelationship) else { break }
            let entity = plan.entities[level]
            backPath.insert((entity.index, inverse), at: 0)
            var properties: [Int] = []
            if level < plan.steps.count {
                switch plan.steps[level] {
                case .toOne(let r), .toMany(let r): properties = [entity.attributes.count + r]
                }
            } else {
                switch plan.terminal {
                case .attribute(let a), .aggregate(_, attribute: let a): properties = [a]
                case .count, .relationship: properties = []
                }
            }
            // An object joining or leaving the far end changes its inverse, which is a trigger too.
            properties.append(entity.attributes.count + inverse)
            result.append(RemoteTrigger(sourceEntity: source.index, derivedAttribute: attribute, entity: entity.index, properties: properties, backPath: backPath))
        }
        return result
    }
}

extension ManagedObjectModel {
    /// The model's derived-attribute plan, made once.
    var derivedAttributePlan: DerivedAttributePlan {
        derived.value { DerivedAttributePlan(model: self) }
    }
}
