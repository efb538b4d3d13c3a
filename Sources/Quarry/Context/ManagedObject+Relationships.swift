extension ManagedObject {
    /// The destination ID of to-one relationship `key` (no destination is loaded).
    public func objectID(forKey key: String) throws -> ObjectID? {
        let r = try relationshipIndex(key, toMany: false)
        checkAccess()
        fireFault()
        return faulted ? nil : toOne[r]
    }

    /// The destination of to-one relationship `key` (a fault until its values are used).
    public func object(forKey key: String) throws -> ManagedObject? {
        guard let id = try objectID(forKey: key), let context = managedObjectContext else { return nil }
        return context.object(with: id)
    }

    /// Sets to-one relationship `key`, maintaining the inverse on the old and new destinations.
    public func setObject(_ destination: ManagedObject?, forKey key: String) throws {
        let r = try relationshipIndex(key, toMany: false)
        let context = try requireContext(sameAs: destination)
        fireFault()
        let newID = destination?.objectID
        let oldID = toOne[r]
        guard oldID != newID else { return }
        recordUndo(toOne: r)
        toOne[r] = newID
        context.noteChanged(self, property: entity.attributes.count + r)
        guard let inverse = context.model.inverseIndex(of: entity, relationship: r) else { return }
        if let oldID { context.removeInverse(of: context.object(with: oldID), relationship: inverse, pointingTo: objectID) }
        guard let destination else { return }
        if !destination.entity.relationships[inverse].isToMany {
            // One-to-one: whoever pointed at the destination before loses it.
            destination.fireFault()
            if let previous = destination.toOne[inverse], previous != objectID {
                context.removeInverse(of: context.object(with: previous), relationship: r, pointingTo: destination.objectID)
            }
        }
        context.addInverse(of: destination, relationship: inverse, pointingTo: objectID)
    }

    /// The destination IDs of to-many relationship `key` (ordered relationships in order).
    public func objectIDs(forKey key: String) throws -> [ObjectID] {
        let r = try relationshipIndex(key, toMany: true)
        checkAccess()
        guard let context = managedObjectContext else { return [] }
        return try context.toManyContents(of: self, relationship: r)
    }

    /// The destinations of to-many relationship `key`, as faults.
    public func objects(forKey key: String) throws -> [ManagedObject] {
        guard let context = managedObjectContext else { return [] }
        return try objectIDs(forKey: key).map(context.object(with:))
    }

    /// Adds `destination` to to-many relationship `key` (at `index` for ordered ones),
    /// maintaining the inverse.
    public func add(_ destination: ManagedObject, toKey key: String, at index: Int? = nil) throws {
        let r = try relationshipIndex(key, toMany: true)
        let context = try requireContext(sameAs: destination)
        fireFault()
        var state = toMany[r] ?? ToManyState()
        if index != nil && !state.isLoaded {
            _ = try context.toManyContents(of: self, relationship: r)
            state = toMany[r]!
        }
        guard state.add(destination.objectID, at: index) else { return }
        toMany[r] = state
        recordUndo(added: destination.objectID, to: r)
        context.noteChanged(self, property: entity.attributes.count + r)
        guard let inverse = context.model.inverseIndex(of: entity, relationship: r) else { return }
        if !destination.entity.relationships[inverse].isToMany {
            // The destination leaves its previous owner.
            destination.fireFault()
            if let previous = destination.toOne[inverse], previous != objectID {
                context.removeInverse(of: context.object(with: previous), relationship: r, pointingTo: destination.objectID)
            }
        }
        context.addInverse(of: destination, relationship: inverse, pointingTo: objectID)
    }

    /// Removes `destination` from to-many relationship `key`, maintaining the inverse.
    public func remove(_ destination: ManagedObject, fromKey key: String) throws {
        let r = try relationshipIndex(key, toMany: true)
        let context = try requireContext(sameAs: destination)
        fireFault()
        var state = toMany[r] ?? ToManyState()
        let position = undoPosition(of: destination.objectID, in: r)
        guard state.remove(destination.objectID) else { return }
        toMany[r] = state
        recordUndo(removed: destination.objectID, from: r, at: position)
        context.noteChanged(self, property: entity.attributes.count + r)
        if let inverse = context.model.inverseIndex(of: entity, relationship: r) {
            context.removeInverse(of: destination, relationship: inverse, pointingTo: objectID)
        }
    }

    /// Replaces the contents of to-many relationship `key` (in this order, for ordered ones).
    public func setObjects(_ destinations: [ManagedObject], forKey key: String) throws {
        let r = try relationshipIndex(key, toMany: true)
        guard let context = managedObjectContext else { throw QuarryError.wrongContext("object \(objectID) has no context") }
        let current = try context.toManyContents(of: self, relationship: r)
        let wanted = Set(destinations.map(\.objectID))
        for id in current where !wanted.contains(id) { try remove(context.object(with: id), fromKey: key) }
        let present = Set(current)
        for d in destinations where !present.contains(d.objectID) { try add(d, toKey: key) }
        if entity.relationships[r].isOrdered, var state = toMany[r], state.members != destinations.map(\.objectID) {
            recordUndo(order: r)
            state.reorder(destinations.map(\.objectID))
            toMany[r] = state
            context.noteChanged(self, property: entity.attributes.count + r)
        }
    }

    private func relationshipIndex(_ key: String, toMany: Bool) throws -> Int {
        guard let r = entity.relationshipIndex(key) else { throw QuarryError.unknownKey(entity: entity.name, key: key) }
        guard entity.relationships[r].isToMany == toMany else {
            throw QuarryError.typeMismatch(entity: entity.name, key: key, expected: toMany ? "a to-one key" : "a to-many key",
                                           got: toMany ? "a to-many relationship" : "a to-one relationship")
        }
        return r
    }

    private func requireContext(sameAs other: ManagedObject?) throws -> ObjectContext {
        checkAccess()
        guard let context = managedObjectContext else { throw QuarryError.wrongContext("object \(objectID) has no context") }
        if let other, other.managedObjectContext !== context {
            throw QuarryError.wrongContext("\(other.entity.name) \(other.objectID) belongs to another context than \(entity.name) \(objectID)")
        }
        return context
    }
}
