extension MigrationStep {
    /// The step's entity changes; rows are counted when `db` is given.
    func entityChanges(_ db: (any MigrationDataReader)?) throws -> [EntityChange] {
        var result: [EntityChange] = []
        for entity in destination.entities {
            let table = newLayout.entities[entity.index].tableIndex
            let old = mapping.entitySource[entity.index].map { source.entities[$0] }
            let changes = old.map { describeChanges(entity, from: $0) } ?? []
            let strategy: EntityChange.Strategy
            switch tables[table] {
            case .create: strategy = .create
            case .copy: strategy = .copy
            case .inPlace: strategy = changes.isEmpty && !renumbersEntities && old?.name == entity.name
                && !tableChanged(table) ? .unchanged : .inPlace
            }
            let kind: EntityChange.Kind
            if let old {
                kind = old.name != entity.name ? .renamed(from: old.name) : (changes.isEmpty ? .unchanged : .changed)
            } else {
                kind = .added
            }
            var rows: Int?
            if let db, let old { rows = try ownRows(db, old.index) }
            result.append(EntityChange(name: entity.name, kind: kind, changes: changes, strategy: strategy, rows: rows))
        }
        for old in mapping.removedEntities {
            result.append(EntityChange(name: old.name, kind: .removed, changes: [], strategy: .drop,
                                       rows: try db.map { try ownRows($0, old.index) }))
        }
        return result
    }

    /// Whether table `t` changes at all (another entity's change, renumbered codes, a rename).
    private func tableChanged(_ t: Int) -> Bool {
        guard let o = tables[t].inPlaceTable else { return true }
        let old = oldLayout.tables[o]
        let new = newLayout.tables[t]
        return old.name != new.name || old.columns.map(\.name) != new.columns.map(\.name)
            || old.columns.map(\.sqlType) != new.columns.map(\.sqlType)
    }

    /// The rows of old entity `old` itself (not its sub-entities) in the old store.
    func ownRows(_ db: any MigrationDataReader, _ old: Int) throws -> Int {
        let table = oldLayout.table(ofEntity: old)
        let filter = table.entityIndices.count > 1 ? " WHERE \"Z_ENT\" = \(old)" : ""
        return try db.count("SELECT COUNT(*) FROM \(sqlIdentifier(table.name))\(filter)")
    }

    /// One line per change of `entity`'s own properties and structure since `old`.
    private func describeChanges(_ entity: EntityDescription, from old: EntityDescription) -> [String] {
        var lines: [String] = []
        if entity.parentName != old.parentName.flatMap({ name in mapping.entityDestination[source.entity(named: name)!.index].map { destination.entities[$0].name } }) {
            lines.append("parent: \(old.parentName ?? "none") → \(entity.parentName ?? "none")")
        }
        let own = Set(entity.definition.ownStoredAttributes.map(\.name))
        var mappedOld = Set<String>()
        for (a, attribute) in entity.attributes.enumerated() {
            guard let previous = mapping.sourceAttribute(entity.index, a) else {
                if own.contains(attribute.name) { lines.append("+ \(attribute.name): \(Self.describe(attribute))") }
                continue
            }
            mappedOld.insert(previous.name)
            guard own.contains(attribute.name) else { continue }
            if previous.name != attribute.name { lines.append("\(attribute.name): renamed from \(previous.name)") }
            if previous.type != attribute.type { lines.append("\(attribute.name): \(previous.type.rawValue) → \(attribute.type.rawValue)") }
            if previous.isOptional != attribute.isOptional {
                let fill = attribute.defaultValue.map { " (default \($0))" } ?? ""
                lines.append("\(attribute.name): \(previous.isOptional ? "optional" : "required") → \(attribute.isOptional ? "optional" : "required")\(fill)")
            }
            if previous.isTransient != attribute.isTransient {
                lines.append("\(attribute.name): \(previous.isTransient ? "transient → stored" : "stored → transient")")
            }
            if previous.isIndexed != attribute.isIndexed { lines.append("\(attribute.name): \(attribute.isIndexed ? "+ index" : "- index")") }
        }
        for attribute in old.definition.ownStoredAttributes where !mappedOld.contains(attribute.name) {
            lines.append("- \(attribute.name)")
        }
        var mappedRelationships = Set<String>()
        for (r, relationship) in entity.relationships.enumerated() {
            let isOwn = entity.definition.relationships.contains { $0.name == relationship.name }
            guard let s = mapping.entitySource[entity.index], let sr = mapping.relationshipSource[entity.index][r] else {
                if isOwn { lines.append("+ \(relationship.name) → \(relationship.destination) (\(relationship.isToMany ? "to-many" : "to-one"))") }
                continue
            }
            let previous = source.entities[s].relationships[sr]
            mappedRelationships.insert(previous.name)
            guard isOwn else { continue }
            if previous.name != relationship.name { lines.append("\(relationship.name): renamed from \(previous.name)") }
            if previous.isToMany != relationship.isToMany {
                lines.append("\(relationship.name): \(previous.isToMany ? "to-many → to-one" : "to-one → to-many")")
            }
            if previous.isOrdered != relationship.isOrdered { lines.append("\(relationship.name): \(relationship.isOrdered ? "now ordered" : "no longer ordered")") }
        }
        for relationship in old.definition.relationships where !mappedRelationships.contains(relationship.name) {
            lines.append("- \(relationship.name)")
        }
        let oldIndexes = Set(old.definition.indexes.map(\.name))
        for index in entity.definition.indexes where !oldIndexes.contains(index.name) {
            lines.append("+ index \(index.name) (\(index.attributes.joined(separator: ", ")))")
        }
        let newIndexes = Set(entity.definition.indexes.map(\.name))
        for index in old.definition.indexes where !newIndexes.contains(index.name) { lines.append("- index \(index.name)") }
        let oldUnique = Set(old.definition.uniquenessConstraints.map { Set($0) })
        for keys in entity.definition.uniquenessConstraints {
            let previous = Set(keys.compactMap { key in entity.attributeIndex(key).flatMap { mapping.sourceAttribute(entity.index, $0)?.name } })
            if !oldUnique.contains(previous) { lines.append("+ unique (\(keys.joined(separator: ", ")))") }
        }
        return lines
    }

    private static func describe(_ attribute: AttributeDescription) -> String {
        var text = attribute.type.rawValue + (attribute.isOptional ? ", optional" : ", required")
        if attribute.isTransient { text += ", transient" }
        if let value = attribute.defaultValue, !value.isNull { text += ", default \(value)" }
        return text
    }
}
