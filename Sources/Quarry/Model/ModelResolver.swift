/// Turns a canonical ``ModelDefinition`` into resolved ``EntityDescription``s, checking every
/// reference along the way.
///
/// Loading is linear in the size of the model: every entity's inheritance chain, descendants,
/// subentities and relationships by name are worked out once, and each relationship is checked
/// once, by the entity that declares it (not again by each of its descendants).
struct ModelResolver {
    let definition: ModelDefinition
    /// Which names are accepted (see ``ManagedObjectModel/NamePolicy``).
    let namePolicy: ManagedObjectModel.NamePolicy

    init(_ definition: ModelDefinition, namePolicy: ManagedObjectModel.NamePolicy = .identifiers) {
        self.definition = definition
        self.namePolicy = namePolicy
    }

    func resolve() throws -> [EntityDescription] {
        let entities = definition.entities
        var indexByName: [String: Int] = [:]  // the first entity of a name
        indexByName.reserveCapacity(entities.count)
        for (index, e) in entities.enumerated() where indexByName[e.name] == nil { indexByName[e.name] = index }
        var parentIndex = [Int?](repeating: nil, count: entities.count)
        for (index, e) in entities.enumerated() {
            guard isValid(e.name) else { throw ModelError.invalidName(e.name) }
            guard indexByName[e.name] == index else { throw ModelError.duplicateEntity(e.name) }
            guard let p = e.parent else { continue }
            guard let parent = indexByName[p] else { throw ModelError.unknownParent(entity: e.name, parent: p) }
            parentIndex[index] = parent
        }
        let hierarchy = try Hierarchy(entities: entities, parentIndex: parentIndex)
        // Each entity's own properties are checked (and its attributes' defaults coerced) once,
        // the first time a chain reaches it; its descendants only add them and look for clashes.
        var ownAttributes = [[AttributeDescription]?](repeating: nil, count: entities.count)

        var result: [EntityDescription] = []
        result.reserveCapacity(entities.count)
        for (index, e) in entities.enumerated() {
            let chain = hierarchy.chains[index]
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var indexes: [IndexDescription] = []
            var constraints: [[String]] = []
            var fetchedProperties: [FetchedPropertyDescription] = []
            var composites: [CompositeAttributeDescription] = []
            var names = Set<String>()
            for levelIndex in chain {
                let level = entities[levelIndex]
                let firstVisit = ownAttributes[levelIndex] == nil
                if let own = ownAttributes[levelIndex] {
                    for a in own {
                        guard names.insert(a.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: a.name) }
                    }
                    attributes += own
                } else {
                    var own: [AttributeDescription] = []
                    own.reserveCapacity(level.attributes.count)
                    for a in level.attributes {
                        guard isValid(a.name) else { throw ModelError.invalidName("\(level.name).\(a.name)") }
                        guard names.insert(a.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: a.name) }
                        own.append(try resolved(a, of: level))
                    }
                    // Composites are stored flattened: one attribute per element, `home.city`.
                    for c in level.compositeAttributes {
                        for element in try flattened(c, of: level) {
                            guard names.insert(element.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: element.name) }
                            own.append(try resolved(element, of: level))
                        }
                    }
                    ownAttributes[levelIndex] = own
                    attributes += own
                }
                for name in level.compositeAttributes.map(\.name) + level.fetchedProperties.map(\.name) {
                    if firstVisit { guard isValid(name) else { throw ModelError.invalidName("\(level.name).\(name)") } }
                    guard names.insert(name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: name) }
                }
                for r in level.relationships {
                    if firstVisit {
                        guard isValid(r.name) else { throw ModelError.invalidName("\(level.name).\(r.name)") }
                    }
                    guard names.insert(r.name).inserted else { throw ModelError.duplicateProperty(entity: e.name, property: r.name) }
                    if firstVisit { try check(r, of: levelIndex, indexByName: indexByName, hierarchy: hierarchy) }
                    relationships.append(r)
                }
                indexes += level.indexes
                constraints += level.uniquenessConstraints
                fetchedProperties += level.fetchedProperties
                composites += level.compositeAttributes
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
            var listStored = Set<Int>()
            for (i, r) in relationships.enumerated() where r.isToMany {
                let inverse = r.inverse.flatMap { name in indexByName[r.destination].flatMap { hierarchy.relationship(named: name, of: $0) } }
                if r.isOrdered || inverse == nil || inverse!.isToMany { listStored.insert(i) }
            }
            let hash = SHA256.hex(Self.schemaText(name: e.name, parent: e.parent, isAbstract: e.isAbstract,
                                                  attributes: attributes, relationships: relationships,
                                                  indexes: indexes, constraints: constraints))
            result.append(EntityDescription(
                definition: e, index: index, rootName: entities[chain[0]].name, rootIndex: chain[0],
                attributes: attributes, relationships: relationships, indexes: indexes,
                uniquenessConstraints: constraints,
                selfAndDescendantIndices: hierarchy.selfAndDescendants[index],
                subentityNames: hierarchy.children[index].map { entities[$0].name },
                versionHash: hash, listStored: listStored, fetchedProperties: fetchedProperties,
                compositeAttributes: composites))
        }
        return result
    }

    /// Attribute `a` of `entity` with its default coerced to its type.
    /// - Throws: ``ModelError/undefinedNotTransient(entity:attribute:)`` or
    ///   ``ModelError/invalidDefault(entity:attribute:value:)``.
    private func resolved(_ a: AttributeDescription, of entity: EntityDefinition) throws -> AttributeDescription {
        if a.type == .undefined {
            guard a.isTransient else { throw ModelError.undefinedNotTransient(entity: entity.name, attribute: a.name) }
            // No loader can write a default of no type back (the JSON format refuses one).
            if let d = a.defaultValue, !d.isNull {
                throw ModelError.invalidDefault(entity: entity.name, attribute: a.name, value: d.description)
            }
        }
        if let d = a.defaultValue, !d.isNull, d.coerced(to: a.type) == nil {
            throw ModelError.invalidDefault(entity: entity.name, attribute: a.name, value: d.description)
        }
        var resolved = a
        if let d = a.defaultValue { resolved.defaultValue = d.coerced(to: a.type) }
        return resolved
    }

    /// The stored attributes of composite `c`: its elements, named `<composite>.<element>`.
    /// - Throws: ``ModelError/invalidComposite(entity:attribute:reason:)`` for a composite
    ///   without elements, with a duplicate element, or with one that cannot be stored.
    private func flattened(_ c: CompositeAttributeDescription, of entity: EntityDefinition) throws -> [AttributeDescription] {
        func refuse(_ reason: String) -> ModelError { .invalidComposite(entity: entity.name, attribute: c.name, reason: reason) }
        guard !c.elements.isEmpty else { throw refuse("it has no elements") }
        var seen = Set<String>()
        for element in c.elements {
            guard isValid(element.name) else { throw refuse("'\(element.name)' is not a valid element name") }
            guard seen.insert(element.name).inserted else { throw refuse("element '\(element.name)' is declared twice") }
            guard !element.isTransient, !element.isDerived, element.type != .undefined else {
                throw refuse("element '\(element.name)' is transient, derived or Undefined; composite elements are stored")
            }
        }
        return c.storedAttributes
    }

    /// Checks relationship `r` of the entity at `entityIndex`: its destination exists, and its
    /// inverse (if named) is a relationship of the destination that names `r` back and points to
    /// the entity, one of its ancestors or one of its descendants.
    private func check(_ r: RelationshipDescription, of entityIndex: Int, indexByName: [String: Int], hierarchy: Hierarchy) throws {
        let entity = definition.entities[entityIndex]
        guard !r.destination.isEmpty else { throw ModelError.missingDestination(entity: entity.name, relationship: r.name) }
        guard let destinationIndex = indexByName[r.destination] else {
            throw ModelError.unknownDestination(entity: entity.name, relationship: r.name, destination: r.destination)
        }
        guard let inverseName = r.inverse else { return }
        let destination = definition.entities[destinationIndex]
        guard let inverse = hierarchy.relationship(named: inverseName, of: destinationIndex) else {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(inverseName)' is not a relationship of '\(destination.name)'")
        }
        if let back = inverse.inverse, back != r.name {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(destination.name).\(inverseName)' names '\(back)' as its inverse")
        }
        let related = indexByName[inverse.destination].map {
            hierarchy.chains[entityIndex].contains($0) || hierarchy.chains[$0].contains(entityIndex)
        } ?? false
        if !related {
            throw ModelError.inverseMismatch(entity: entity.name, relationship: r.name,
                                             reason: "inverse '\(destination.name).\(inverseName)' points to '\(inverse.destination)', not '\(entity.name)'")
        }
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
        // ASCII names (nearly all) are checked byte by byte, without Unicode property lookups.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes = name.utf8.makeIterator()
            guard let first = bytes.next(), first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
            while let b = bytes.next() {
                guard b == UInt8(ascii: "_") || isASCIILetter(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return false }
            }
            return true
        }
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
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
            // A derived attribute's expression decides what is stored; named only when set.
            let derived = a.derivationExpression.map { " derived=\($0)" } ?? ""
            lines.append("attribute \(a.name) \(a.type.rawValue) optional=\(a.isOptional) transient=\(a.isTransient)\(transformer)\(preserved)\(derived)")
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
