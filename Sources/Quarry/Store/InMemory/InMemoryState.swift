/// One stored object: its concrete entity and its committed state.
struct InMemoryRow: Sendable {
    /// The index of the object's concrete entity.
    var entityIndex: Int
    /// The committed state (transient attributes `.null`, to-many slots `nil`).
    var snapshot: Snapshot
}

/// Everything an ``InMemoryStore`` holds. A value: a save works on a copy and commits it whole.
struct InMemoryState: Sendable {
    /// Rows per root entity index, by primary key.
    var rows: [Int: [Int64: InMemoryRow]] = [:]
    /// The last primary key handed out, per root entity index.
    var lastPrimaryKeys: [Int: Int64] = [:]
    /// Join lists (owner → ordered members) of the storing side of each list-stored relationship.
    var joins: [RelationshipKey: [ObjectID: [ObjectID]]] = [:]
    /// Positions of ordered relationships whose membership is derived (foreign key or the
    /// reading side of a many-to-many pair), per owner.
    var orders: [RelationshipKey: [ObjectID: [ObjectID]]] = [:]

    /// The row of `id`, if it exists with that entity.
    func row(_ id: ObjectID, root: Int) -> InMemoryRow? {
        guard let row = rows[root]?[id.primaryKey], row.entityIndex == Int(id.entityIndex) else { return nil }
        return row
    }

    /// The IDs of the rows of root `root` whose entity is in `entities`, in primary-key order.
    func objectIDs(root: Int, entities: Set<Int>) -> [ObjectID] {
        guard let table = rows[root] else { return [] }
        return table.keys.sorted().compactMap { pk in
            let entity = table[pk]!.entityIndex
            return entities.contains(entity) ? ObjectID(entityIndex: entity, primaryKey: pk) : nil
        }
    }

    /// The members of to-many `storage` of `owner`, in stored order.
    func members(of owner: ObjectID, storage: ToManyStorage, model: ManagedObjectModel) -> [ObjectID] {
        switch storage {
        case .foreignKey(let destination, let inverse, let order):
            let entity = model.entities[destination]
            let entities = Set(entity.selfAndDescendantIndices)
            let table = rows[entity.rootIndex] ?? [:]
            let ids = table.keys.sorted().compactMap { pk -> ObjectID? in
                let row = table[pk]!
                guard entities.contains(row.entityIndex), row.snapshot.toOne[inverse] == owner else { return nil }
                return ObjectID(entityIndex: row.entityIndex, primaryKey: pk)
            }
            return ordered(ids, by: order.flatMap { orders[$0]?[owner] })
        case .join(let key):
            return joins[key]?[owner] ?? []
        case .reversedJoin(let key, let order):
            let owners = (joins[key] ?? [:]).filter { $0.value.contains(owner) }.keys.sorted()
            return ordered(owners, by: order.flatMap { orders[$0]?[owner] })
        }
    }

    /// `ids` (primary-key order) rearranged by the stored positions `order`: listed members
    /// first in list order, then any others in primary-key order.
    func ordered(_ ids: [ObjectID], by order: [ObjectID]?) -> [ObjectID] {
        guard let order, !order.isEmpty else { return ids }
        let present = Set(ids)
        var seen = Set<ObjectID>()
        var result = order.filter { present.contains($0) && seen.insert($0).inserted }
        result.append(contentsOf: ids.filter { !seen.contains($0) })
        return result
    }
}
