/// A save's object merged into another to resolve a uniqueness clash: after the save the loser
/// has left the context and carries the survivor's ID.
struct ConstraintMerge {
    /// The object merged away (deleted by the save).
    let loser: ManagedObject
    /// The object holding the key after the save: the stored row's object, or the first of the
    /// save's objects holding it.
    let survivor: ManagedObject
}

/// What resolving a save's uniqueness clashes did, for the end of the save.
struct ConstraintResolution {
    /// The objects merged away, each with its survivor.
    var merges: [ConstraintMerge] = []
    /// How many clashes the merge policy resolved.
    var resolvedClashes = 0
}

extension ObjectContext {
    /// Finds the uniqueness-constraint clashes of the save about to be written and resolves
    /// them by ``uniquenessMergePolicy``, else ``mergePolicy``, as Core Data's merge policies
    /// resolve constraint conflicts.
    ///
    /// Under ``MergePolicy/error`` it throws ``ConstraintConflictError`` listing every clash and
    /// changes nothing. Under the other policies each clash keeps one object, the *survivor*:
    /// the stored row holding the key (made an object of this context), else the first of the
    /// save's objects holding it (a changed stored object before inserted ones, inserted ones
    /// in insertion order). Every other object holding the key, a *loser*, is merged into it:
    /// - ``MergePolicy/mergeByPropertyObjectTrump``: the loser's changed attributes and to-ones
    ///   win (an inserted object's changes are its values other than the model's defaults);
    /// - ``MergePolicy/mergeByPropertyStoreTrump``: the survivor's values win; the loser's
    ///   changes fill only the properties the survivor holds no value for;
    /// - ``MergePolicy/overwrite``: the loser's whole state (attributes and to-ones) replaces
    ///   the survivor's;
    /// - ``MergePolicy/rollback``: the survivor's state stands; a changed stored loser has its
    ///   changes discarded instead of being merged (its key goes back to the stored one).
    ///
    /// The loser's to-many destinations join the survivor's (so objects that pointed to the
    /// loser point to the survivor), references to it from the save's other objects are
    /// re-pointed, and the loser is deleted; ``finishConstraintMerges(_:)`` gives it the
    /// survivor's ID once the save has written it.
    /// - Throws: ``ConstraintConflictError`` (error policy, or clashes that would merge two
    ///   stored rows into one); a store read error; a validation error of a merged survivor.
    func resolveConstraintConflicts() throws -> ConstraintResolution {
        guard model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) else { return ConstraintResolution() }
        var inserted: [ManagedObject] = []
        for object in insertedList where object.inserted && !object.entity.uniquenessConstraints.isEmpty { inserted.append(object) }
        let updated = updatedObjects.values
            .filter { !$0.changedMask.isEmpty && !$0.entity.uniquenessConstraints.isEmpty }
            .sorted { $0.objectID < $1.objectID }
        guard !inserted.isEmpty || !updated.isEmpty else { return ConstraintResolution() }
        let clashes = try UniquenessClashFinder(model: model).clashes(
            inserted: inserted, updated: updated, deleted: Set(deletedObjects.keys),
            current: { self.lookup($0) }, store: coordinator.store)
        guard !clashes.isEmpty else { return ConstraintResolution() }
        let policy = uniquenessMergePolicy ?? mergePolicy
        if policy == .error { throw ConstraintConflictError(conflicts: try conflicts(of: clashes)) }

        var resolution = ConstraintResolution(resolvedClashes: clashes.count)
        var discarded: [ManagedObject] = []
        var mergedInto: [ObjectIdentifier: ManagedObject] = [:]
        var storedSurvivors = Set<ObjectIdentifier>()
        func root(_ object: ManagedObject) -> ManagedObject {
            var object = object
            while let next = mergedInto[ObjectIdentifier(object)] { object = next }
            return object
        }
        for clash in clashes {
            var losers = clash.objects
            let first: ManagedObject
            if let id = clash.storedID {
                first = object(with: id)
                storedSurvivors.insert(ObjectIdentifier(first))
            } else {
                first = losers.removeFirst()
            }
            let survivor = root(first)
            for candidate in losers {
                let loser = root(candidate)
                guard loser !== survivor else { continue }
                if storedSurvivors.contains(ObjectIdentifier(loser)) {
                    throw ConstraintConflictError(conflicts: try conflicts(of: clashes),
                                                  reason: "\(loser.entity.name) \(loser.objectID) and \(survivor.entity.name) \(survivor.objectID) are both stored and would be merged into one")
                }
                if policy == .rollback && !loser.inserted {
                    discarded.append(loser)
                    continue
                }
                mergedInto[ObjectIdentifier(loser)] = survivor
                resolution.merges.append(ConstraintMerge(loser: loser, survivor: survivor))
            }
        }
        for merge in resolution.merges { try self.merge(merge.loser, into: merge.survivor, policy: policy) }
        for object in discarded { refresh(object, mergeChanges: false) }
        processPendingChanges()
        // Exactly, from contents: the first pass's differences counted objects merged away.
        try recomputeDerivedAttributes(exact: true)
        try validateForSave()
        return resolution
    }

    /// After the save wrote the merged survivors: each loser leaves the context and takes its
    /// survivor's (now permanent) ID, so `context.object(with: loser.objectID)` is the survivor.
    func finishConstraintMerges(_ merges: [ConstraintMerge]) {
        for merge in merges {
            let loser = merge.loser
            if loser.managedObjectContext === self, registry.object(for: loser.objectID) === loser { registry.remove(loser.objectID) }
            loser.objectID = merge.survivor.objectID
            loser.inserted = false
            loser.deleted = false
            loser.managedObjectContext = nil
        }
    }

    /// The public record of each clash: its key, the stored row's state, the save's objects' states.
    private func conflicts(of clashes: [UniquenessClash]) throws -> [ConstraintConflict] {
        let stored = try coordinator.store.snapshots(for: clashes.compactMap(\.storedID))
        return clashes.map { clash in
            ConstraintConflict(entityName: clash.scope.name, constraint: clash.constraint, values: clash.key,
                               databaseObjectID: clash.storedID, databaseSnapshot: clash.storedID.flatMap { stored[$0] },
                               conflictingObjectIDs: clash.objects.map(\.objectID),
                               conflictingSnapshots: clash.objects.map(\.currentSnapshot))
        }
    }

    /// Merges `loser` into `survivor` by `policy` (see ``resolveConstraintConflicts()``), then
    /// deletes `loser`.
    private func merge(_ loser: ManagedObject, into survivor: ManagedObject, policy: MergePolicy) throws {
        survivor.fireFault()
        guard !survivor.isFault else { throw QuarryError.objectNotFound("\(survivor.entity.name) \(survivor.objectID)") }
        let attributeCount = loser.entity.attributes.count
        for (i, attribute) in loser.entity.attributes.enumerated() where !attribute.isDerived {
            guard let j = survivor.entity.attributeIndex(attribute.name) else { continue }
            let changed = loser.inserted ? loser.values[i] != loser.entity.defaultValues[i] : loser.changedMask.contains(i)
            if Self.loserWins(policy, changed: changed, survivorHolds: !survivor.values[j].isNull), survivor.values[j] != loser.values[i] {
                try survivor.setValue(loser.values[i], at: j)
            }
        }
        for (r, relationship) in loser.entity.relationships.enumerated() {
            guard let j = survivor.entity.relationshipIndex(relationship.name) else { continue }
            if relationship.isToMany {
                for id in try toManyContents(of: loser, relationship: r) where id != loser.objectID {
                    try survivor.add(object(with: id), toKey: relationship.name)
                }
            } else {
                let destination = loser.toOne[r]
                let changed = loser.inserted ? destination != nil : loser.changedMask.contains(attributeCount + r)
                if Self.loserWins(policy, changed: changed, survivorHolds: survivor.toOne[j] != nil), survivor.toOne[j] != destination {
                    try survivor.setObject(destination.map { object(with: $0) }, forKey: relationship.name)
                }
            }
        }
        try repointReferences(to: loser, at: survivor)
        delete(loser)
    }

    /// Whether the loser's value of a property replaces the survivor's under `policy`.
    private static func loserWins(_ policy: MergePolicy, changed: Bool, survivorHolds: Bool) -> Bool {
        switch policy {
        case .mergeByPropertyObjectTrump: return changed
        case .mergeByPropertyStoreTrump: return changed && !survivorHolds
        case .overwrite: return true
        case .rollback, .error: return false
        }
    }

    /// Re-points the save's other objects' relationships without an inverse from `loser` to
    /// `survivor` (relationships with an inverse were moved through the loser's side).
    private func repointReferences(to loser: ManagedObject, at survivor: ManagedObject) throws {
        let id = loser.objectID
        let changed = insertedList.filter(\.inserted) + Array(updatedObjects.values)
        for object in changed where object !== loser {
            for (r, relationship) in object.entity.relationships.enumerated()
            where model.entity(named: relationship.destination).map({ loser.entity.isKind(of: $0) }) == true {
                guard model.inverseIndex(of: object.entity, relationship: r) == nil else { continue }
                if !relationship.isToMany {
                    if object.toOne[r] == id { try object.setObject(survivor, forKey: relationship.name) }
                    continue
                }
                guard let state = object.toMany[r], state.contains(id) || state.pendingAdds.contains(id) else { continue }
                var seen = Set<ObjectID>()
                let members = try toManyContents(of: object, relationship: r)
                    .map { $0 == id ? survivor.objectID : $0 }
                    .filter { seen.insert($0).inserted }
                try object.setObjects(members.map { self.object(with: $0) }, forKey: relationship.name)
            }
        }
    }
}
