/// The models a store passes through on its way to a new model: straight from the stored model
/// to the new one, or through the intermediate versions of a ``ModelVersionHistory`` when the
/// direct mapping would lose what the steps keep.
struct MigrationChain {
    /// The models in order, the stored one first, each with its version name when known.
    let models: [(name: String?, model: ManagedObjectModel)]
    /// The bundle versions between the stored and the target one that do not load, each said
    /// with its file: the chain goes around them.
    let notes: [String]

    init(stored: ManagedObjectModel, target: ManagedObjectModel, versions: ModelVersionHistory?) {
        let direct: [(name: String?, model: ManagedObjectModel)] = [(nil, stored), (nil, target)]
        guard let versions, let from = versions.index(ofVersionHash: stored.versionHash) else {
            models = direct
            notes = []
            return
        }
        let to = versions.index(ofVersionHash: target.versionHash)
        notes = to.map { to in
            let (first, last) = (versions.versions[from].name, versions.versions[to].name)
            return versions.skipped(between: first, and: last).map {
                "version '\($0.name)' (\($0.path)) does not load, so the migration from '\(first)' to '\(last)' goes around it: \($0.reason)"
            }
        } ?? []
        let named = direct.enumerated().map { ($0.offset == 0 ? versions.versions[from].name : to.map { versions.versions[$0].name }, $0.element.model) }
        guard let to, to > from + 1 else {
            models = named
            return
        }
        let steps = versions.versions[from...to].map { (name: Optional($0.name), model: $0.model) }
        // Steps win when the direct mapping is refused outright or keeps fewer properties.
        let directStep = ModelMapping(source: stored, destination: target)
        let directValid = Self.isValid(directStep)
        let stepsValid = zip(steps, steps.dropFirst()).allSatisfy { Self.isValid(ModelMapping(source: $0.model, destination: $1.model)) }
        if stepsValid && (!directValid || Self.survivors(through: steps.map(\.model)) > Self.survivors(through: [stored, target])) {
            models = steps
        } else {
            models = named
        }
    }

    /// Whether a mapping has no type change that would lose values.
    private static func isValid(_ mapping: ModelMapping) -> Bool {
        mapping.destination.entities.allSatisfy { entity in
            entity.attributes.indices.allSatisfy { mapping.lossyTypeChange(entity.index, $0) == nil }
        }
    }

    /// How many stored properties of the first model reach the last one through the mappings.
    static func survivors(through models: [ManagedObjectModel]) -> Int {
        guard let first = models.first else { return 0 }
        // Track each (entity, property name) of the first model by its current location.
        var alive: [String: String] = [:]   // original key -> current key
        for e in first.entities {
            for a in e.attributes where !a.isTransient { alive["\(e.name).\(a.name)"] = "\(e.name).\(a.name)" }
            for r in e.relationships { alive["\(e.name).\(r.name)"] = "\(e.name).\(r.name)" }
        }
        for (source, destination) in zip(models, models.dropFirst()) {
            let mapping = ModelMapping(source: source, destination: destination)
            var moved: [String: String] = [:]   // old current key -> new key
            for e in destination.entities {
                guard let s = mapping.entitySource[e.index] else { continue }
                let old = source.entities[s]
                for (a, attribute) in e.attributes.enumerated() {
                    if let sa = mapping.attributeSource[e.index][a] { moved["\(old.name).\(old.attributes[sa].name)"] = "\(e.name).\(attribute.name)" }
                }
                for (r, relationship) in e.relationships.enumerated() {
                    if let sr = mapping.relationshipSource[e.index][r] { moved["\(old.name).\(old.relationships[sr].name)"] = "\(e.name).\(relationship.name)" }
                }
            }
            alive = alive.compactMapValues { moved[$0] }
        }
        return alive.count
    }
}
