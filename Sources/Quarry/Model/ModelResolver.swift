/// Turns a canonical ``ModelDefinition`` into resolved ``EntityDescription``s, checking every
/// reference along the way.
struct ModelResolver {
    let definition: ModelDefinition
    let byName: [String: EntityDefinition]
    /// Which names are accepted (see ``ManagedObjectModel/NamePolicy``).
    let namePolicy: ManagedObjectModel.NamePolicy

    init(_ definition: ModelDefinition, namePolicy: ManagedObjectModel.NamePolicy = .identifiers) {
        self.definition = definition
        self.namePolicy = namePolicy
        var byName: [String: EntityDefinition] = [:]
        for e in definition.entities where byName[e.name] == nil { byName[e.name] = e }
        self.byName = byName
    }

    func resolve() throws -> [EntityDescription] {
        var seen = Set<String>()
        for e in definition.entities {
            guard isValid(e.name) else { throw ModelError.invalidName(e.name) }
            guard seen.insert(e.name).inserted else { throw ModelError.duplicateEntity(e.name) }
            if let p = e.parent, byName[p] == nil { throw ModelError.unknownParent(entity: e.name, parent: p) }
        }
        let indexByName = Dictionary(uniqueKeysWithValues: definition.entities.enumerated().map { ($1.name, $0) })
        var chains: [String: [EntityDefinition]] = [:]  // root first, self last
        for e in definition.entities { chains[e.name] = try chain(of: e) }

        var result: [EntityDescription] = []
        for (index, e) in definition.entities.enumerated() {
            let chain = chains[e.name]!
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var indexes: [IndexDescription] = []
            var constraints: [[String]] = []
            var names = Set<String>()
            for level in chain {
                for a in level.attributes {
                    guard isValid(a.name) else { throw ModelError.invalidName("\(level.name).\(a.name)") }
                    guard names.insert(a.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: a.name) }
                    if a.type == .undefined {
                        guard a.isTransient else { throw ModelError.undefinedNotTransient(entity: level.name, attribute: a.name) }
                        // No loader can write a default of no type back (the JSON format refuses one).
                        if let d = a.defaultValue, !d.isNull {
                            throw ModelError.invalidDefault(entity: level.name, attribute: a.name, value: d.description)
                        }
                    }
                    if let d = a.defaultValue, !d.isNull, d.coerced(to: a.type) == nil {
                        throw ModelError.invalidDefault(entity: level.name, attribute: a.name, value: d.description)
                    }
                    var resolved = a
                    if let d = a.defaultValue { resolved.defaultValue = d.coerced(to: a.type) }
                    attributes.append(resolved)
                }
                for r in level.relationships {
                    guard isValid(r.name) else { throw ModelError.invalidName("\(level.name).\(r.name)") }
                    guard names.insert(r.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: r.name) }
                    try check(r, of: level)
                    relationships.append(r)
                }
                indexes += level.indexes
                constraints += level.uniquenessConstraints
            }
            let attributeNames = Set(attributes.map(\.name))
            for i in indexes {
                for a in i.attributes where !attributeNames.contains(a) {
                    throw ModelError.unknownAttribute(entity: e.name, attribute: a, usedIn: "index '\(i.name)'")
                }
            }
            for c in constraints {
                for a in c where !attributeNames.contains(a) {
                    throw ModelError.unknownAttribute(entity: e.name, attribute: a, usedIn: "uniqueness constraint")
                }
            }
            let root = chain[0].name
            let descendants = definition.entities.filter { chains[$0.name]!.contains { $0.name == e.name } }
            let subentities = definition.entities.filter { $0.parent == e.name }.map(\.name)
            var listStored = Set<Int>()
            for (i, r) in relationships.enumerated() where r.isToMany {
                let inverse = r.inverse.flatMap { name in byName[r.destination].flatMap { allRelationships(of: $0).first { $0.name == name } } }
                if r.isOrdered || inverse == nil || inverse!.isToMany { listStored.insert(i) }
            }
            let hash = SHA256.hex(Self.schemaText(name: e.name, parent: e.parent, isAbstract: e.isAbstract,
                                                  attributes: attributes, relationships: relationships,
                                                  indexes: indexes, constraints: constraints))
            result.append(EntityDescription(
                definition: e, index: index, rootName: root, rootIndex: indexByName[root]!,
                attributes: attributes, relationships: relationships, indexes: indexes,
                uniquenessConstraints: constraints,
                selfAndDescendantIndices: descendants.map { indexByName[$0.name]! }.sorted(),
                subentityNames: subentities, versionHash: hash, listStored: listStored))
        }
        return result
    }

    /// The inheritance chain of `entity`, root first.
    private func chain(of entity: EntityDefinition) throws -> [EntityDefinition] {
        var chain = [entity]
        var visited: Set<String> = [entity.name]
        var current = entity
        while let p = current.parent {
            guard visited.insert(p).inserted else { throw ModelError.inheritanceCycle(entity: entity.name) }
            current = byName[p]!
            chain.insert(current, at: 0)
        }
        return chain
    }

    private func check(_ r: RelationshipDescription, of entity: EntityDefinition) throws {
        guard !r.destination.isEmpty else { throw ModelError.missingDestination(entity: entity.name, relationship: r.name) }
        guard let destination = byName[r.destination] else {
            throw ModelError.unknownDestination(entity: entity.name, relationship: r.name, destination: r.destination)
        }
        guard let inverseName = r.inverse else { return }
        guard let inverse = allRelationships(of: destination).first(where: { $0.name == inverseName }) else {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(inverseName)' is not a relationship of '\(destination.name)'")
        }
        if let back = inverse.inverse, back != r.name {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(destination.name).\(inverseName)' names '\(back)' as its inverse")
        }
        let ancestry = (try? chain(of: entity))?.map(\.name) ?? [entity.name]
        let descendants = definition.entities.filter { ((try? chain(of: $0)) ?? []).contains { $0.name == entity.name } }.map(\.name)
        if !ancestry.contains(inverse.destination) && !descendants.contains(inverse.destination) {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(destination.name).\(inverseName)' points to '\(inverse.destination)', not '\(entity.name)'")
        }
    }

    private func allRelationships(of entity: EntityDefinition) -> [RelationshipDescription] {
        ((try? chain(of: entity)) ?? [entity]).flatMap(\.relationships)
    }

    /// Whether `name` is acceptable under the resolver's policy.
    func isValid(_ name: String) -> Bool {
        switch namePolicy {
        case .identifiers: return Self.isValidName(name)
        case .anyText: return Self.isValidTextName(name)
        }
    }

    /// A name under ``ManagedObjectModel/NamePolicy/anyText``: not empty, no `.` (the key-path
    /// separator) and no control characters (names reach the terminal).
    static func isValidTextName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0 != "." && !$0.properties.generalCategory.isControlLike }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// The text hashed into an entity's version hash: everything that shapes storage.
    static func schemaText(
        name: String, parent: String?, isAbstract: Bool, attributes: [AttributeDescription],
        relationships: [RelationshipDescription], indexes: [IndexDescription], constraints: [[String]]
    ) -> String {
        var lines = ["entity \(name) parent=\(parent ?? "-") abstract=\(isAbstract)"]
        for a in attributes {
            // The transformer shapes the stored bytes; named only when there is one, so
            // hashes of models without transformers stay as they were.
            let transformer = a.valueTransformerName.map { " transformer=\($0)" } ?? ""
            // Likewise for tombstone attributes: what history keeps of a deleted row.
            let preserved = a.preservesValueInHistoryOnDeletion ? " preservesValueInHistoryOnDeletion" : ""
            lines.append("attribute \(a.name) \(a.type.rawValue) optional=\(a.isOptional) transient=\(a.isTransient)\(transformer)\(preserved)")
        }
        for r in relationships {
            lines.append("relationship \(r.name) -> \(r.destination) inverse=\(r.inverse ?? "-") toMany=\(r.isToMany) ordered=\(r.isOrdered)")
        }
        for i in indexes { lines.append("index \(i.name) \(i.attributes.joined(separator: ","))") }
        for c in constraints { lines.append("unique \(c.joined(separator: ","))") }
        return lines.joined(separator: "\n")
    }
}


extension Unicode.GeneralCategory {
    /// Control, format, surrogate, private-use and unassigned scalars: never shown in a name.
    var isControlLike: Bool {
        switch self {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
