extension MigrationStep {
    /// Refuses a step that would lose values, reading the old store only: a type change that
    /// cannot keep every value, a required attribute rows have no value for, a uniqueness
    /// constraint existing rows break. (A to-many that becomes to-one is checked while migrating,
    /// inside the transaction that is then rolled back.)
    /// - Throws: ``MigrationError``.
    func check(_ db: (any MigrationDataReader)?, path: String) throws {
        for entity in destination.entities {
            let own = Set(entity.definition.ownStoredAttributes.map(\.name))
            for (a, attribute) in entity.attributes.enumerated() where own.contains(attribute.name) && !attribute.isTransient {
                if let old = mapping.lossyTypeChange(entity.index, a) {
                    throw MigrationError.incompatibleType(path: path, entity: entity.name, attribute: attribute.name, from: old.type, to: attribute.type)
                }
                let old = mapping.sourceAttribute(entity.index, a)
                guard let db, !attribute.isOptional, attribute.defaultValue?.isNull ?? true else { continue }
                // Required without a default: every existing row needs a value already.
                let missing: Int
                if let old, !old.isTransient, let column = oldColumn(entity.index, a) {
                    missing = old.isOptional ? try count(db, entity, where: "\(sqlIdentifier(column)) IS NULL") : 0
                } else {
                    missing = try count(db, entity, where: nil)
                }
                if missing > 0 {
                    throw MigrationError.missingValues(path: path, entity: entity.name, attribute: attribute.name, rows: missing)
                }
            }
            guard let db, let s = mapping.entitySource[entity.index] else { continue }
            let oldConstraints = Set(source.entities[s].uniquenessConstraints.map { Set($0) })
            for keys in entity.definition.uniquenessConstraints {
                let oldNames = keys.map { key in entity.attributeIndex(key).flatMap { mapping.sourceAttribute(entity.index, $0)?.name } }
                if oldNames.allSatisfy({ $0 != nil }), oldConstraints.contains(Set(oldNames.map { $0! })) { continue }
                try checkUnique(db, entity, keys: keys, path: path)
            }
        }
    }

    /// The old column holding attribute `a` of new entity `e`, if it was stored.
    func oldColumn(_ e: Int, _ a: Int) -> String? {
        guard let s = mapping.entitySource[e], let sa = mapping.attributeSource[e][a],
              let position = oldLayout.entities[s].attributeColumns[sa] else { return nil }
        return oldLayout.table(ofEntity: s).columns[position].name
    }

    /// Rows of `entity` (and its sub-entities) in the old store matching `condition`.
    func count(_ db: any MigrationDataReader, _ entity: EntityDescription, where condition: String?) throws -> Int {
        let codes = entity.selfAndDescendantIndices.compactMap { mapping.entitySource[$0] }
        guard let first = codes.first else { return 0 }
        let table = oldLayout.table(ofEntity: first)
        var filters = table.entityIndices.count > codes.count ? ["\"Z_ENT\" IN (\(codes.map(String.init).joined(separator: ", ")))"] : []
        if let condition { filters.append(condition) }
        let filter = filters.isEmpty ? "" : " WHERE " + filters.joined(separator: " AND ")
        return try db.count("SELECT COUNT(*) FROM \(sqlIdentifier(table.name))\(filter)")
    }

    private func checkUnique(_ db: any MigrationDataReader, _ entity: EntityDescription, keys: [String], path: String) throws {
        var expressions: [String] = []
        for key in keys {
            guard let a = entity.attributeIndex(key) else { return }
            if let column = oldColumn(entity.index, a) {
                expressions.append(sqlIdentifier(column))
            } else if let value = entity.attributes[a].defaultValue, !value.isNull {
                expressions.append(db.literal(value))
            } else {
                return  // A new attribute without a default is NULL everywhere: NULLs never collide.
            }
        }
        let codes = entity.selfAndDescendantIndices.compactMap { mapping.entitySource[$0] }
        guard let first = codes.first else { return }
        let table = sqlIdentifier(oldLayout.table(ofEntity: first).name)
        let notNull = expressions.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let groups = """
            SELECT \(expressions.joined(separator: ", ")), COUNT(*) AS n FROM \(table) \
            WHERE "Z_ENT" IN (\(codes.map(String.init).joined(separator: ", "))) AND \(notNull) \
            GROUP BY \(expressions.indices.map { String($0 + 1) }.joined(separator: ", ")) HAVING COUNT(*) > 1
            """
        let total = try db.count("SELECT COUNT(*) FROM (\(groups)) AS duplicates")
        guard total > 0 else { return }
        let examples = try db.rows(groups + " LIMIT 3").map { row in
            let values = keys.indices.map { i in "\(keys[i]) = \(row[i])" }
            return "\(values.joined(separator: ", ")) (\(row[keys.count]) rows)"
        }
        throw MigrationError.duplicateRows(path: path, entity: entity.name, attributes: keys, groups: total, examples: examples)
    }
}
