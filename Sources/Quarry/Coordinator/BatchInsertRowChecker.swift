/// What a batch insert checks each row against, worked out once per request from the model:
/// the entity, the attributes and to-ones the request names, their types, optionality,
/// transformers and destination entities. ``snapshot(values:destinations:row:)`` turns one
/// row into the state it is stored with, or names the row and key at fault.
struct BatchInsertRowChecker {
    let entity: EntityDescription
    let attributeIndexes: [Int]
    let relationshipIndexes: [Int]
    private let columns: [(index: Int, type: AttributeType, isOptional: Bool, isTransformed: Bool)]
    private let links: [(index: Int, isOptional: Bool, destination: EntityDescription)]
    /// Per link, per entity index: whether it is a kind of the link's destination.
    private let accepts: [[Bool]]
    /// An attribute neither given nor defaulted that needs a value.
    private let missingRequired: Int?
    private let blank: Snapshot

    /// - Throws: ``BatchInsertError`` for an unknown or abstract entity or a key that cannot
    ///   be inserted in bulk.
    init(_ request: BatchInsertRequest, model: ManagedObjectModel) throws {
        guard let entity = model.entity(named: request.entityName), !entity.isAbstract else {
            throw BatchInsertError.invalidEntity(request.entityName)
        }
        let name = entity.name
        let attributeIndexes = try request.attributes.map { key -> Int in
            guard let a = entity.attributeIndex(key) else {
                throw BatchInsertError.unsupportedKey(entity: name, key: key, reason: "is not an attribute")
            }
            guard !entity.attributes[a].isTransient else {
                throw BatchInsertError.unsupportedKey(entity: name, key: key, reason: "is transient (never stored)")
            }
            return a
        }
        let relationshipIndexes = try request.relationships.map { key -> Int in
            guard let r = entity.relationshipIndex(key), !entity.relationships[r].isToMany else {
                throw BatchInsertError.unsupportedKey(entity: name, key: key, reason: "is not a to-one relationship")
            }
            let destination = model.destination(of: entity, relationship: r)
            if let inverse = entity.relationships[r].inverse, let i = destination.relationshipIndex(inverse),
               destination.relationships[i].isOrdered {
                throw BatchInsertError.unsupportedKey(entity: name, key: key, reason: "has an ordered inverse (positions need a context)")
            }
            return r
        }
        missingRequired = entity.attributes.indices.first { a in
            let attribute = entity.attributes[a]
            return !attribute.isOptional && !attribute.isTransient && attribute.defaultValue == nil && !attributeIndexes.contains(a)
        }
        columns = attributeIndexes.map { a in
            let attribute = entity.attributes[a]
            return (index: a, type: attribute.type, isOptional: attribute.isOptional,
                    isTransformed: attribute.type == .transformable && attribute.valueTransformerName != nil)
        }
        links = relationshipIndexes.map { r in
            (index: r, isOptional: entity.relationships[r].isOptional, destination: model.destination(of: entity, relationship: r))
        }
        accepts = links.map { link in model.entities.map { $0.isKind(of: link.destination) } }
        blank = Snapshot(defaultsFor: entity)
        self.entity = entity
        self.attributeIndexes = attributeIndexes
        self.relationshipIndexes = relationshipIndexes
    }

    /// Throws when a required attribute without a default is not among the request's
    /// attributes (checked once there is a row to insert).
    func requireEveryAttribute() throws {
        if let missing = missingRequired {
            throw BatchInsertError.invalidValue(entity: entity.name, row: 0, key: entity.attributes[missing].name, reason: "is required and has no default")
        }
    }

    /// Row `n`'s state: the model's defaults, the given values (coerced to their attributes'
    /// types) and the given destinations.
    /// - Throws: ``BatchInsertError`` naming the row and key at fault.
    func snapshot(values: [Value], destinations: [ObjectID?], row n: Int) throws -> Snapshot {
        let name = entity.name
        guard values.count == columns.count else {
            throw BatchInsertError.rowShape(entity: name, row: n, expected: columns.count, got: values.count)
        }
        guard destinations.count == links.count else {
            throw BatchInsertError.rowShape(entity: name, row: n, expected: links.count, got: destinations.count)
        }
        var snapshot = blank
        for (column, value) in zip(columns, values) {
            guard let stored = value.coerced(to: column.type) else {
                throw BatchInsertError.invalidValue(entity: name, row: n, key: entity.attributes[column.index].name,
                                                    reason: "\(value) is not a valid \(column.type)")
            }
            if case .null = stored, !column.isOptional {
                throw BatchInsertError.invalidValue(entity: name, row: n, key: entity.attributes[column.index].name, reason: "is required")
            }
            if column.isTransformed, let reason = entity.attributes[column.index].transformerRefusal(for: stored) {
                throw BatchInsertError.invalidValue(entity: name, row: n, key: entity.attributes[column.index].name, reason: reason)
            }
            snapshot.values[column.index] = stored
        }
        for (l, destination) in destinations.enumerated() {
            let link = links[l]
            if let destination {
                let e = Int(destination.entityIndex)
                guard !destination.isTemporary, accepts[l].indices.contains(e), accepts[l][e] else {
                    throw BatchInsertError.invalidValue(entity: name, row: n, key: entity.relationships[link.index].name,
                                                        reason: "\(destination) is not a saved \(link.destination.name)")
                }
            } else if !link.isOptional {
                throw BatchInsertError.invalidValue(entity: name, row: n, key: entity.relationships[link.index].name, reason: "is required")
            }
            snapshot.toOne[link.index] = destination
        }
        return snapshot
    }
}
