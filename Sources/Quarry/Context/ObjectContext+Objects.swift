extension ObjectContext {
    /// The object for `id`: the registered instance, or a new fault (no I/O).
    ///
    /// Uniquing: every call with the same ID returns the same instance while it is alive.
    public func object(with id: ObjectID) -> ManagedObject {
        checkQueue()
        let id = resolve(id)
        if let existing = lookup(id) { return existing }
        let entity = model.entities[Int(id.entityIndex)]
        let object = model.objectClass(for: entity).init(entity: entity, id: id, context: self)
        registry.register(object)
        return object
    }

    /// The registered instance for `id`, or `nil` (never creates a fault).
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        checkQueue()
        return lookup(resolve(id))
    }

    /// The object for `id` with its values loaded.
    /// - Throws: ``QuarryError/objectNotFound(_:)`` when it no longer exists.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = object(with: id)
        if object.faulted {
            guard let snapshot = try readSource.sourceSnapshots(for: [object.objectID])[object.objectID] else {
                throw QuarryError.objectNotFound("\(object.entity.name) \(id)")
            }
            object.install(snapshot, keepingChanges: false)
        }
        guard !object.deleted else { throw QuarryError.objectNotFound("\(object.entity.name) \(id)") }
        return object
    }

    /// The typed object for `id` with its values loaded.
    public func existingObject<T: ManagedObject>(with id: ObjectID, as type: T.Type) throws -> T {
        guard let typed = try existingObject(with: id) as? T else {
            throw QuarryError.wrongContext("object \(id) is not a \(T.self)")
        }
        return typed
    }

    /// Inserts a new object of entity `entityName`, with its default values.
    /// - Throws: ``QuarryError/unknownEntity(_:)`` or ``QuarryError/abstractEntity(_:)``.
    @discardableResult
    public func insertObject(entityName: String) throws -> ManagedObject {
        let entity = try model.requireEntity(entityName)
        return try insertObject(entity, as: model.objectClass(for: entity))
    }

    /// Inserts a new object of the typed class `type` (bound to entity `type.entityName`).
    @discardableResult
    public func insert<T: ManagedObject>(_ type: T.Type) throws -> T {
        // Importers insert one class over and over: remember its entity.
        if let (cached, entity) = lastInsertedClass, cached == ObjectIdentifier(T.self) {
            return try insertObject(entity, as: T.self) as! T
        }
        let entity = try model.requireEntity(T.entityName)
        if model.objectClass(for: entity) != T.self { model.register(T.self, for: entity.name) }
        lastInsertedClass = (ObjectIdentifier(T.self), entity)
        return try insertObject(entity, as: T.self) as! T
    }

    private func insertObject(_ entity: EntityDescription, as type: ManagedObject.Type) throws -> ManagedObject {
        checkQueue()
        guard !entity.isAbstract else { throw QuarryError.abstractEntity(entity.name) }
        let object = type.init(entity: entity, id: .temporary(entityIndex: entity.index), context: self)
        object.values = entity.defaultValues
        object.toOne = Array(repeating: nil, count: entity.relationships.count)
        object.faulted = false
        object.inserted = true
        trackInserted(object)
        pending.inserted.append(object)
        scheduleProcessing()
        undoStorage?.record(.appeared(object))
        object.awakeFromInsert()
        return object
    }

    /// Loads the values of every fault among `objects` in one batch per entity.
    public func faultIn(_ objects: [ManagedObject]) throws {
        checkQueue()
        let faults = objects.filter { $0.faulted && $0.managedObjectContext === self }
        guard !faults.isEmpty else { return }
        let snapshots = try readSource.sourceSnapshots(for: faults.map(\.objectID))
        for object in faults {
            if let s = snapshots[object.objectID] { object.install(s, keepingChanges: false) } else { markGone(object) }
        }
    }

    /// Loads one fault (``ManagedObject/fireFault()``).
    func fulfillFault(_ object: ManagedObject) {
        checkQueue()
        if let (group, index) = object.faultBatch {
            object.faultBatch = nil
            let start = index - index % group.size
            let window = group.ids[start..<min(group.ids.count, start + group.size)]
            let faults = window.compactMap { lookup($0) }.filter { $0.faulted }
            for f in faults { f.faultBatch = nil }
            // A failed batch read falls through to the object's own read below, which reports.
            if let snapshots = try? readSource.sourceSnapshots(for: faults.map(\.objectID)) {
                for f in faults where f !== object { if let s = snapshots[f.objectID] { f.install(s, keepingChanges: false) } }
                if let s = snapshots[object.objectID] { object.install(s, keepingChanges: false) } else { markGone(object) }
                // The fetch's relationships to prefetch, for this batch. (A failed prefetch
                // leaves the destinations faults, read one by one as they are used: an
                // optimisation lost, nothing wrong shown.)
                for path in group.prefetching { try? prefetch(path, from: faults) }
                return
            }
        }
        if let s = prefetchedSnapshots.removeValue(forKey: object.objectID) {
            object.install(s, keepingChanges: false)
        } else {
            do {
                if let s = try readSource.sourceSnapshots(for: [object.objectID])[object.objectID] {
                    object.install(s, keepingChanges: false)
                } else {
                    markGone(object)
                }
            } catch {
                markUnreadable(object, error)
            }
        }
    }

    /// An object whose row could not be read: it reads as empty but stays a fault, so the
    /// next access reads it again; the failure is kept in ``lastReadError``. (Never taken
    /// for deleted: only a successful read that finds no row makes an object gone.)
    func markUnreadable(_ object: ManagedObject, _ error: any Error) {
        clearValues(of: object)
        lastReadError = ContextReadError("loading a fault", objectIDs: [object.objectID], error: error)
    }

    /// Every attribute `NULL`, every to-one empty: how an object reads whose row is gone or
    /// could not be read.
    private func clearValues(of object: ManagedObject) {
        object.values = object.entity.attributes.map { _ in .null }
        object.toOne = Array(repeating: nil, count: object.entity.relationships.count)
    }

    /// An object whose row no longer exists: with ``shouldDeleteInaccessibleFaults`` (the
    /// default) it holds its entity's default values and reports deleted, as in Core Data;
    /// without, it reads as empty and the failure is kept in ``lastReadError``.
    func markGone(_ object: ManagedObject) {
        object.faulted = false
        if shouldDeleteInaccessibleFaults {
            object.values = object.entity.defaultValues
            object.toOne = Array(repeating: nil, count: object.entity.relationships.count)
            object.deleted = true
        } else {
            clearValues(of: object)
            lastReadError = ContextReadError("fulfilling a fault", objectIDs: [object.objectID],
                                             error: QuarryError.objectNotFound("\(object.entity.name) \(object.objectID)"))
        }
    }

    /// The ID `id` now has (a temporary ID this context or an ancestor has since saved).
    func resolve(_ id: ObjectID) -> ObjectID {
        guard id.isTemporary else { return id }
        return permanentIDs[id] ?? source.sourcePermanentID(for: id) ?? id
    }

    /// `ids` with each temporary ID resolved (``resolve(_:)``): the same array, neither copied
    /// nor written, when none is temporary (every store's answer), so a fetch of a million IDs
    /// is not copied a second time.
    func resolved(_ ids: consuming [ObjectID]) -> [ObjectID] {
        var ids = ids
        for i in ids.indices where ids[i].isTemporary { ids[i] = resolve(ids[i]) }
        return ids
    }

    /// The current contents of to-many `relationship` of `object`, loading them if needed.
    func toManyContents(of object: ManagedObject, relationship r: Int) throws -> [ObjectID] {
        object.fireFault()
        if let members = object.toMany[r]?.members { return members }
        let committed = object.inserted ? [] : try readSource.sourceRelatedIDs(of: object.objectID, relationship: r)
        var state = object.toMany[r] ?? ToManyState()
        state.load(committed.map(resolve))
        object.toMany[r] = state
        return state.members ?? []
    }
}

extension ObjectContext: ObjectSource {
    func sourceSnapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        try performAndWait {
            var result: [ObjectID: Snapshot] = [:]
            var missing: [ObjectID] = []
            for id in ids {
                let own = resolve(id)
                if deletedObjects[own] != nil { continue }
                if let object = lookup(own), !object.faulted {
                    if !object.deleted { result[id] = object.currentSnapshot }
                } else {
                    missing.append(id)
                }
            }
            if !missing.isEmpty {
                let loaded = try readSource.sourceSnapshots(for: missing.map(resolve))
                for id in missing { if let s = loaded[resolve(id)] { result[id] = s } }
            }
            return result
        }
    }

    func sourceRelatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        try performAndWait {
            let own = resolve(id)
            if let object = lookup(own), !object.faulted {
                return try toManyContents(of: object, relationship: relationship)
            }
            return try readSource.sourceRelatedIDs(of: own, relationship: relationship).map(resolve)
        }
    }

    func sourceObjectIDs(for query: StoreQuery) throws -> [ObjectID] {
        try performAndWait { try objectIDs(for: query) }
    }

    func sourcePermanentID(for id: ObjectID) -> ObjectID? {
        performAndWait { permanentIDs[id] ?? source.sourcePermanentID(for: id) }
    }
}
