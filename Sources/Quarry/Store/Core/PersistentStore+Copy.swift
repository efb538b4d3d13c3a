extension PersistentStore {
    /// Copies every object and relationship of this store into `destination`, an empty store
    /// of the same model, in one save (what `quarry convert` needs: SQLite ↔ JSON folder).
    ///
    /// Objects are inserted per root entity in primary-key order, so a store whose IDs have no
    /// gaps keeps every ID; after deletions the destination numbers the objects 1, 2, … and
    /// relationships follow the new IDs. Values (transients aside), to-ones, and to-many
    /// contents in their stored order are kept, so copying back gives an equal store.
    ///
    /// ```swift
    /// let source = try SQLiteStore(url: sqliteURL, model: model)
    /// let json = try JSONStore(url: folderURL, model: source.model)
    /// let copied = try source.copyAllObjects(to: json)
    /// ```
    /// `progress`, when given, is called after each batch of objects read with the objects read
    /// so far and the objects to copy; an error it throws stops the copy before anything is
    /// written to `destination` (a caller's way to cancel).
    ///
    /// - Returns: How many objects were copied.
    /// - Throws: ``StoreError/modelMismatch(path:entities:)`` when the models differ,
    ///   ``QuarryError/refused(_:)`` when `destination` is not empty, and any error of the
    ///   reads or of the destination's save (which then writes nothing).
    @discardableResult
    public func copyAllObjects(to destination: any PersistentStore, progress: ((_ read: Int, _ total: Int) throws -> Void)? = nil) throws -> Int {
        guard destination.model.versionHash == model.versionHash else {
            let ours = model.entityVersionHashes, theirs = destination.model.entityVersionHashes
            let differing = Set(ours.keys).union(theirs.keys).filter { ours[$0] != theirs[$0] }.sorted()
            throw StoreError.modelMismatch(path: destination.url?.path ?? "memory", entities: differing)
        }
        for entity in model.entities where entity.parentName == nil {
            guard try destination.count(for: StoreQuery(entity: destination.model.entities[entity.index])) == 0 else {
                throw QuarryError.refused("\(destination.url?.path ?? "memory"): the destination store already holds \(entity.name) objects; copy into an empty store")
            }
        }
        var ids: [ObjectID] = []
        for entity in model.entities where !entity.isAbstract {
            ids += try objectIDs(for: StoreQuery(entity: entity, includesSubentities: false))
        }
        ids.sort { a, b in
            let ra = model.entities[Int(a.entityIndex)].rootIndex, rb = model.entities[Int(b.entityIndex)].rootIndex
            return ra != rb ? ra < rb : a.primaryKey < b.primaryKey
        }
        var temporary: [ObjectID: ObjectID] = [:]
        temporary.reserveCapacity(ids.count)
        for id in ids { temporary[id] = .temporary(entityIndex: Int(id.entityIndex)) }
        var changes = StoreChangeSet()
        changes.inserts.reserveCapacity(ids.count)
        // Member lists are read a relationship at a time where the store can (an in-memory or
        // JSON store scans a table per owner otherwise: quadratic), else an owner at a time.
        var lists: [CopiedRelationship: [ObjectID: [ObjectID]]] = [:]
        var askedOneByOne = Set<CopiedRelationship>()
        func members(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
            let key = CopiedRelationship(entity: Int(id.entityIndex), relationship: relationship)
            if lists[key] == nil, !askedOneByOne.contains(key) {
                if let all = try allRelatedIDs(ofEntity: key.entity, relationship: relationship) { lists[key] = all } else { askedOneByOne.insert(key) }
            }
            if let all = lists[key] { return all[id] ?? [] }
            return try relatedIDs(of: id, relationship: relationship)
        }
        let batch = 10_000
        for start in stride(from: 0, to: ids.count, by: batch) {
            let slice = Array(ids[start..<min(start + batch, ids.count)])
            let snapshots = try self.snapshots(for: slice)
            for id in slice {
                guard var snapshot = snapshots[id] else { continue }
                let entity = model.entities[Int(id.entityIndex)]
                snapshot.toOne = snapshot.toOne.map { $0.flatMap { temporary[$0] } }
                snapshot.version = 0
                var lists: [Int: [ObjectID]] = [:]
                for (r, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                    let members = try members(of: id, relationship: r).compactMap { temporary[$0] }
                    if !members.isEmpty { lists[r] = members }
                }
                changes.inserts.append(ObjectChange(id: temporary[id]!, snapshot: snapshot, toMany: lists))
            }
            try progress?(start + slice.count, ids.count)
        }
        guard !changes.isEmpty else { return 0 }
        _ = try destination.save(changes) { _ in .fail }
        return changes.inserts.count
    }
}

/// A to-many relationship of one entity, as ``PersistentStore/copyAllObjects(to:)`` reads it.
private struct CopiedRelationship: Hashable {
    var entity: Int
    var relationship: Int
}
