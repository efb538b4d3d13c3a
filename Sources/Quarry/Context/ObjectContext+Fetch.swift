extension ObjectContext {
    /// The IDs `query` selects as this context sees them: the store's answer, corrected for
    /// the objects inserted, updated and deleted here (evaluated in memory with the same
    /// semantics), in the query's order.
    /// - Throws: ``QueryError`` for an invalid predicate or sort key (nothing is executed).
    public func objectIDs(for query: StoreQuery) throws -> [ObjectID] {
        try objectIDs(for: query, includesPendingChanges: true)
    }

    func objectIDs(for query: StoreQuery, includesPendingChanges: Bool) throws -> [ObjectID] {
        checkQueue()
        let evaluator = try query.predicate.map { try PredicateEvaluator($0, entity: query.entity, model: model) }
        let sorter = query.sortDescriptors.isEmpty ? nil : try SubjectSorter<ObjectSubject>(query.sortDescriptors, entity: query.entity, model: model)
        let kinds = Set(query.includesSubentities ? query.entity.selfAndDescendantIndices : [query.entity.index])
        func ofKind(_ id: ObjectID) -> Bool { kinds.contains(Int(id.entityIndex)) }
        let inserted = includesPendingChanges ? insertedList.filter { $0.inserted && ofKind($0.objectID) } : []
        let updated = includesPendingChanges ? updatedObjects.values.filter { ofKind($0.objectID) } : []
        let hasDeletes = includesPendingChanges && deletedObjects.keys.contains(where: ofKind)
        guard !inserted.isEmpty || !updated.isEmpty || hasDeletes else {
            return resolved(try readSource.sourceObjectIDs(for: query))
        }
        var unbounded = query
        unbounded.limit = 0
        unbounded.offset = 0
        let changedHere = Set(updated.map(\.objectID))
        var ids = resolved(try readSource.sourceObjectIDs(for: unbounded)).filter { deletedObjects[$0] == nil && !changedHere.contains($0) }
        let local = (updated.sorted { $0.objectID < $1.objectID } + inserted).filter { evaluator?.evaluate($0) ?? true }
        if let sorter {
            ids += local.map(\.objectID)
            let objects = ids.map(object(with:))
            try faultIn(objects)
            ids = sorter.sort(ids) { ObjectSubject(object: self.object(with: $0)) }
        } else {
            ids = (ids + local.filter { !$0.objectID.isTemporary }.map(\.objectID)).sorted()
            ids += local.filter { $0.objectID.isTemporary }.map(\.objectID)
        }
        let start = min(max(query.offset, 0), ids.count)
        let end = query.limit > 0 ? min(ids.count, start + query.limit) : ids.count
        return Array(ids[start..<end])
    }

    /// The store query a fetch request describes.
    func storeQuery(for request: FetchRequest) throws -> StoreQuery {
        StoreQuery(entity: try model.requireEntity(request.entityName), includesSubentities: request.includesSubentities,
                   predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                   limit: request.fetchLimit, offset: request.fetchOffset)
    }

    /// The IDs a request selects (nothing is loaded).
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try objectIDs(for: try storeQuery(for: request), includesPendingChanges: request.includesPendingChanges)
    }

    /// The objects a request selects, uniqued in this context.
    ///
    /// With `returnsObjectsAsFaults == false` every result is loaded in one batch; with a
    /// `fetchBatchSize` only the first batch is; relationship key paths to prefetch are loaded
    /// in one batch per level: for every result, or with a `fetchBatchSize` for each batch as
    /// it is loaded (Core Data's batched fetch prefetches per batch, so a fetch of a million
    /// results does not load every destination up front).
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let objects = try fetchObjectIDs(request).map(object(with:))
        var prefetchedFrom = objects
        if !request.returnsObjectsAsFaults {
            try faultIn(objects)
        } else if request.fetchBatchSize > 0 {
            // Faults load a batch at a time: the first use of any object loads its batch.
            let group = FaultBatch(ids: objects.map(\.objectID), size: request.fetchBatchSize,
                                   prefetching: request.relationshipKeyPathsForPrefetching)
            for (i, o) in objects.enumerated() where o.faulted { o.faultBatch = (group, i) }
            let first = Array(objects.prefix(request.fetchBatchSize))
            for o in first { o.faultBatch = nil }
            try faultIn(first)
            prefetchedFrom = first
        }
        for path in request.relationshipKeyPathsForPrefetching {
            try prefetch(path, from: prefetchedFrom)
        }
        return objects
    }

    /// The typed objects a request selects.
    public func fetch<T: ManagedObject>(_ request: FetchRequest, as type: T.Type) throws -> [T] {
        if let entity = model.entity(named: T.entityName), model.objectClass(for: entity) != T.self {
            model.register(T.self, for: entity.name)
        }
        return try fetch(request).compactMap { $0 as? T }
    }

    /// How many objects a request selects, without loading them (pending changes honoured).
    public func count(for request: FetchRequest) throws -> Int {
        let query = try storeQuery(for: request)
        if !request.includesPendingChanges || !hasChanges, parent == nil {
            _ = try query.predicate.map { try PredicateEvaluator($0, entity: query.entity, model: model) }
            return try readStore.count(for: query)
        }
        return try objectIDs(for: query, includesPendingChanges: request.includesPendingChanges).count
    }

    /// Loads the destinations of `path` (dot-separated relationships) for `objects` in batches.
    /// Their snapshots are kept until each fault fires, so a destination nobody holds yet is
    /// still served without another query.
    /// - Returns: the destinations at the end of `path`, for a caller that holds them while
    ///   its objects are in use (the context holds unchanged objects weakly).
    @discardableResult
    func prefetch(_ path: String, from objects: [ManagedObject]) throws -> [ManagedObject] {
        var level = objects
        for key in path.split(separator: ".").map(String.init) {
            try faultIn(level)
            var next: [ManagedObject] = []
            for o in level where !o.faulted {
                guard let r = o.entity.relationshipIndex(key) else { throw QuarryError.unknownKey(entity: o.entity.name, key: key) }
                if o.entity.relationships[r].isToMany {
                    next += try toManyContents(of: o, relationship: r).map(object(with:))
                } else if let id = o.toOne[r] {
                    next.append(object(with: id))
                }
            }
            // Many objects share a destination (the tickers of one sector): each once.
            var seen = Set<ObjectIdentifier>()
            level = next.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        let faults = level.filter(\.faulted)
        guard !faults.isEmpty else { return level }
        let snapshots = try readSource.sourceSnapshots(for: faults.map(\.objectID))
        for object in faults {
            guard let s = snapshots[object.objectID] else { continue }
            object.install(s, keepingChanges: false)
            prefetchedSnapshots[object.objectID] = s
        }
        return level
    }

    /// The objects of entity `entityName` (and its sub-entities), loaded in one batch.
    public func objects(ofEntity entityName: String, includesSubentities: Bool = true) throws -> [ManagedObject] {
        var request = FetchRequest(entityName: entityName)
        request.includesSubentities = includesSubentities
        request.returnsObjectsAsFaults = false
        return try fetch(request)
    }

    /// The typed objects of `type`'s entity.
    public func objects<T: ManagedObject>(of type: T.Type) throws -> [T] {
        var request = FetchRequest(entityName: T.entityName)
        request.returnsObjectsAsFaults = false
        return try fetch(request, as: T.self)
    }

    /// How many objects of entity `entityName` there are, as this context sees them.
    public func count(ofEntity entityName: String, includesSubentities: Bool = true) throws -> Int {
        var request = FetchRequest(entityName: entityName)
        request.includesSubentities = includesSubentities
        return try count(for: request)
    }
}
