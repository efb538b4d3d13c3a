extension ObjectContext {
    /// The IDs `query` selects as this context sees them: the store's, less the objects deleted
    /// here, plus the objects inserted here (pending changes are honoured).
    public func objectIDs(for query: StoreQuery) throws -> [ObjectID] {
        checkQueue()
        let kinds = Set(query.includesSubentities ? query.entity.selfAndDescendantIndices : [query.entity.index])
        let pendingInserts = insertionOrder.filter { insertedObjects[$0] != nil && kinds.contains(Int($0.entityIndex)) }
        let hasPending = !pendingInserts.isEmpty || deletedObjects.keys.contains { kinds.contains(Int($0.entityIndex)) }
        guard hasPending else { return try source.sourceObjectIDs(for: query).map(resolve) }
        var unbounded = query
        unbounded.limit = 0
        unbounded.offset = 0
        var ids = try source.sourceObjectIDs(for: unbounded).map(resolve).filter { deletedObjects[$0] == nil }
        ids += pendingInserts
        let start = min(query.offset, ids.count)
        let end = query.limit > 0 ? min(ids.count, start + query.limit) : ids.count
        return Array(ids[start..<end])
    }

    /// The objects of entity `entityName` (and its sub-entities), loaded in one batch.
    public func objects(ofEntity entityName: String, includesSubentities: Bool = true) throws -> [ManagedObject] {
        let entity = try model.requireEntity(entityName)
        let objects = try objectIDs(for: StoreQuery(entity: entity, includesSubentities: includesSubentities)).map(object(with:))
        try faultIn(objects)
        return objects
    }

    /// The typed objects of `type`'s entity.
    public func objects<T: ManagedObject>(of type: T.Type) throws -> [T] {
        let entity = try model.requireEntity(T.entityName)
        if model.objectClass(for: entity) != T.self { model.register(T.self, for: entity.name) }
        return try objects(ofEntity: entity.name).compactMap { $0 as? T }
    }

    /// How many objects of entity `entityName` there are, as this context sees them.
    public func count(ofEntity entityName: String, includesSubentities: Bool = true) throws -> Int {
        let entity = try model.requireEntity(entityName)
        return try objectIDs(for: StoreQuery(entity: entity, includesSubentities: includesSubentities)).count
    }
}
