extension InMemoryState {
    /// Checks the uniqueness constraints touched by a save against the state after the save.
    ///
    /// A constraint covers every row of the root entity whose entity has the constrained
    /// attributes (one table per root, as in SQLite). As in SQL, a key holding a `NULL` never
    /// collides.
    /// - Throws: ``StoreError/uniquenessViolation(entity:keys:)`` for the first duplicate found.
    func checkUniqueness(of touched: [ObjectID], model: ManagedObjectModel) throws {
        var checked = Set<[String]>()
        for id in touched {
            let entity = model.entities[Int(id.entityIndex)]
            for names in entity.uniquenessConstraints where checked.insert([entity.rootName] + names).inserted {
                try checkConstraint(names, entity: entity, model: model)
            }
        }
    }

    private func checkConstraint(_ names: [String], entity: EntityDescription, model: ManagedObjectModel) throws {
        var indexesByEntity: [Int: [Int]?] = [:]
        var seen = Set<[Value]>()
        for row in (rows[entity.rootIndex] ?? [:]).values {
            if indexesByEntity[row.entityIndex] == nil {
                let rowEntity = model.entities[row.entityIndex]
                let indexes = names.compactMap(rowEntity.attributeIndex)
                indexesByEntity[row.entityIndex] = .some(indexes.count == names.count ? indexes : nil)
            }
            guard let indexes = indexesByEntity[row.entityIndex]!, !indexes.isEmpty else { continue }
            let key = indexes.map { row.snapshot.values[$0] }
            if key.contains(where: \.isNull) { continue }
            if !seen.insert(key).inserted {
                throw StoreError.uniquenessViolation(entity: entity.name, keys: names)
            }
        }
    }
}
