import Foundation

/// Derived attributes (``AttributeDescription/derivationExpression``) are recomputed by the
/// save, in the context, so every back end stores the same values: after the
/// ``ManagedObject/willSave()`` rounds and before validation (the order `docs/lifecycle.md`
/// and `docs/model-constructs.md` pin), every object the save writes has the derived
/// attributes recomputed whose inputs changed, and so has every object whose derived key path
/// leads to an object the save inserts, deletes or changes (found through the relationships'
/// inverses): an order's `items.@sum.price` follows a change of one item's price.
extension ObjectContext {
    /// Recomputes the derived attributes the pending changes affect, recording new values as
    /// changes of their objects (so the save writes them).
    ///
    /// A `@sum` or `@count` kept by differences (``DerivedAttributePlan/deltas``) of an object
    /// the save does not otherwise change is left to the store instead
    /// (``pendingStoreIncrements``, for a context that saves to its store): the object need
    /// not be loaded, and does not become a changed object. With `exact` (a second pass in one
    /// save, after merging uniqueness clashes) no differences are used: every object reached
    /// is recomputed from its contents.
    /// - Throws: what reading a relationship's destinations throws, or a value the attribute
    ///   cannot hold (an integer `@sum` beyond 64 bits).
    func recomputeDerivedAttributes(exact: Bool = false) throws {
        pendingStoreIncrements = []
        let plan = model.derivedAttributePlan
        guard !plan.isEmpty else { return }
        let saveDate = Date()
        var due: [ObjectIdentifier: (object: ManagedObject, all: Bool)] = [:]
        func mark(_ object: ManagedObject, all: Bool) {
            guard !object.deleted, !plan.derivedByEntity[object.entity.index].isEmpty else { return }
            if let found = due[ObjectIdentifier(object)], found.all || !all { return }
            due[ObjectIdentifier(object)] = (object, all)
        }
        let inserted = insertedList.filter(\.inserted)
        let updated = updatedObjects.values.filter { !$0.changedMask.isEmpty }
        for object in inserted { mark(object, all: true) }
        for object in updated { mark(object, all: false) }
        let useDeltas = !exact && !plan.deltas.isEmpty
        if !plan.remoteTriggers.isEmpty {
            let kept = useDeltas ? Set(plan.deltas.map(\.trigger)) : []
            for object in inserted { try markSources(reachedFrom: object, plan: plan, skipping: kept, mark: mark) }
            for object in updated { try markSources(reachedFrom: object, plan: plan, skipping: kept, mark: mark) }
            for object in deletedObjects.values { try markSources(reachedFrom: object, plan: plan, skipping: kept, mark: mark) }
        }
        var changed = false
        if useDeltas {
            // Before the recomputations below, which override a delta where they run. An object
            // the save writes anyway (or recomputes) takes its differences in memory.
            let toStore = parent == nil
            changed = try applyDerivedDeltas(plan.deltas, plan: plan, changed: inserted + updated + Array(deletedObjects.values)) { id in
                guard toStore else { return .memory }
                guard let object = self.lookup(id) else { return .store(base: nil) }
                guard !object.inserted, !object.deleted, object.changedMask.isEmpty, due[ObjectIdentifier(object)] == nil else { return .memory }
                // The loaded row, so the store need not read it back (see DerivedIncrement.base).
                return .store(base: object.faulted ? nil : object.committed)
            }
        }
        for (object, all) in due.values {
            for derived in plan.derivedByEntity[object.entity.index] {
                // `now()` (no triggers) recomputes at every save of its object.
                let needed = all || derived.ownTriggers.isEmpty || derived.ownTriggers.contains(where: object.changedMask.contains)
                guard needed else { continue }
                let value = try derivedValue(derived, of: object, at: saveDate)
                guard object.primitiveValue(at: derived.attribute) != value else { continue }
                try object.setValue(value, at: derived.attribute)
                changed = true
            }
        }
        if changed { processPendingChanges() }
    }

    /// Marks the objects whose derived key paths reach `object` when it changed a property
    /// they read (or was inserted or deleted), walking back along the inverses: the current
    /// destinations and, for a to-one, the one the store holds (an item moved to another
    /// order changes both orders' sums).
    private func markSources(reachedFrom object: ManagedObject, plan: DerivedAttributePlan, skipping kept: Set<Int>,
                             mark: (ManagedObject, Bool) -> Void) throws {
        for (t, trigger) in plan.remoteTriggers.enumerated()
        where !kept.contains(t) && object.entity.isKind(of: model.entities[trigger.entity]) {
            let whole = object.inserted || object.deleted
            guard whole || trigger.properties.contains(where: object.changedMask.contains) else { continue }
            var frontier = [object]
            for (entityIndex, relationship) in trigger.backPath {
                var next: [ManagedObject] = []
                for node in frontier where node.entity.isKind(of: model.entities[entityIndex]) {
                    for id in try backReferences(of: node, relationship: relationship) { next.append(self.object(with: id)) }
                }
                frontier = next
            }
            let source = model.entities[trigger.sourceEntity]
            for found in frontier where found.entity.isKind(of: source) { mark(found, true) }
        }
    }

    /// The objects relationship `r` of `node` points to now, and (for a to-one) the one it
    /// pointed to when loaded.
    private func backReferences(of node: ManagedObject, relationship r: Int) throws -> [ObjectID] {
        if node.entity.relationships[r].isToMany {
            guard !node.deleted || node.toMany[r] != nil else { return [] }
            return try toManyContents(of: node, relationship: r)
        }
        node.fireFault()
        var ids: [ObjectID] = []
        if r < node.toOne.count, let current = node.toOne[r] { ids.append(current) }
        if let committed = node.committed, r < committed.toOne.count, let old = committed.toOne[r], !ids.contains(old) {
            ids.append(old)
        }
        return ids
    }

    /// `items.@count` or `items.@sum.price` (one to-many step, then the operator) read straight
    /// from the contents and the registered objects, without the general walk's arrays of
    /// subjects: the common derived attribute, recomputed for every order an item change
    /// reaches (`quarry-bench derived-cost`). `nil` for any other path.
    private func oneStepAggregate(_ plan: KeyPathPlan, of object: ManagedObject) throws -> Value? {
        guard plan.steps.count == 1, case .toMany(let r) = plan.steps[0] else { return nil }
        switch plan.terminal {
        case .count:
            return .integer(Int64(try toManyContents(of: object, relationship: r).count))
        case .aggregate(let op, let a):
            let ids = try toManyContents(of: object, relationship: r)
            var values: [Value] = []
            values.reserveCapacity(ids.count)
            for id in ids { values.append(self.object(with: id).primitiveValue(at: a)) }
            return try op.summarize(values, type: plan.finalEntity.attributes[a].type, name: plan.keyPath)
        case .attribute, .relationship:
            return nil
        }
    }

    /// The value of `derived` for `object` now, in its attribute's type.
    private func derivedValue(_ derived: DerivedAttributePlan.Derived, of object: ManagedObject, at saveDate: Date) throws -> Value {
        let raw: Value
        switch derived.expression {
        case .now:
            raw = .date(saveDate)
        case .keyPath:
            if let plan = derived.plan, let value = try oneStepAggregate(plan, of: object) {
                raw = value
            } else {
                raw = try derived.plan?.values(of: ObjectSubject(object: object)).first ?? .null
            }
        case .function(let function, _):
            raw = function.apply(to: try derived.plan?.values(of: ObjectSubject(object: object)).first ?? .null)
        }
        return raw.coerced(to: derived.type) ?? .null
    }
}
