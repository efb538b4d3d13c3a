extension InMemoryState {
    /// The members of to-many `storage` for every owner at once, in stored order: what
    /// ``members(of:storage:model:)`` gives for one owner, in one pass over the rows (writing a
    /// JSON store asks for every owner, which one at a time would be quadratic).
    func allMembers(storage: ToManyStorage, model: ManagedObjectModel) -> [ObjectID: [ObjectID]] {
        switch storage {
        case .join(let key):
            return joins[key] ?? [:]
        case .foreignKey(let destination, let inverse, let order):
            let entity = model.entities[destination]
            let entities = Set(entity.selfAndDescendantIndices)
            let table = rows[entity.rootIndex] ?? [:]
            var result: [ObjectID: [ObjectID]] = [:]
            for pk in table.keys.sorted() {
                let row = table[pk]!
                guard entities.contains(row.entityIndex), let owner = row.snapshot.toOne[inverse] else { continue }
                result[owner, default: []].append(ObjectID(entityIndex: row.entityIndex, primaryKey: pk))
            }
            return reordered(result, by: order)
        case .reversedJoin(let key, let order):
            var result: [ObjectID: [ObjectID]] = [:]
            let lists = joins[key] ?? [:]
            for owner in lists.keys.sorted() {
                for member in lists[owner]! { result[member, default: []].append(owner) }
            }
            return reordered(result, by: order)
        }
    }

    private func reordered(_ lists: [ObjectID: [ObjectID]], by order: RelationshipKey?) -> [ObjectID: [ObjectID]] {
        guard let order, let positions = orders[order] else { return lists }
        var result = lists
        for (owner, list) in lists { result[owner] = ordered(list, by: positions[owner]) }
        return result
    }
}
