/// Finds the uniqueness-constraint clashes of a save before it is written: among the save's
/// own objects, and against the rows the store already holds.
///
/// An inserted object takes part under every constraint of its entity; a changed stored object
/// only under the constraints whose attributes it changed (its other keys are already stored).
/// The store is asked once per constraint and chunk of keys (the batch insert's upsert query),
/// so a save without constrained changes asks nothing.
struct UniquenessClashFinder {
    let model: ManagedObjectModel

    /// The clashes of a save inserting `inserted`, changing `updated` and deleting `deleted`.
    /// - Parameters:
    ///   - current: the object in the context for a stored ID, if it is registered (its pending
    ///     key, not the stored one, decides whether it still holds a key).
    ///   - store: where stored rows are looked up.
    func clashes(inserted: [ManagedObject], updated: [ManagedObject], deleted: Set<ObjectID>,
                 current: (ObjectID) -> ManagedObject?, store: PersistentStore) throws -> [UniquenessClash] {
        // 1. The save's objects by constraint and key.
        var groups: [GroupKey: UniquenessClash] = [:]
        var order: [GroupKey] = []
        func note(_ object: ManagedObject, changedOnly: Bool) {
            for names in object.entity.uniquenessConstraints {
                let indexes = names.compactMap(object.entity.attributeIndex)
                guard indexes.count == names.count else { continue }
                if changedOnly && !indexes.contains(where: object.changedMask.contains) { continue }
                let key = indexes.map { object.values[$0] }
                if key.contains(where: \.isNull) { continue }
                let scope = BatchInsertUpsert.declaringEntity(of: names, from: object.entity, model: model)
                let group = GroupKey(scope: scope.index, names: names, key: key)
                if groups[group] == nil {
                    groups[group] = UniquenessClash(scope: scope, constraint: names, key: key, storedID: nil, objects: [])
                    order.append(group)
                }
                groups[group]!.objects.append(object)
            }
        }
        for object in updated { note(object, changedOnly: true) }
        for object in inserted { note(object, changedOnly: false) }
        guard !groups.isEmpty else { return [] }

        // 2. The stored rows holding those keys, per constraint.
        var byConstraint: [ConstraintKey: [GroupKey]] = [:]
        for group in order { byConstraint[ConstraintKey(scope: group.scope, names: group.names), default: []].append(group) }
        for (constraint, wanted) in byConstraint.sorted(by: { $0.key < $1.key }) {
            let scope = model.entities[constraint.scope]
            for start in stride(from: 0, to: wanted.count, by: BatchInsertUpsert.keysPerQuery) {
                let chunk = wanted[start..<min(wanted.count, start + BatchInsertUpsert.keysPerQuery)]
                let query = StoreQuery(entity: scope, includesSubentities: true,
                                       predicate: BatchInsertUpsert.predicate(constraint.names, keys: ArraySlice(chunk.map(\.key))))
                for (id, stored) in try store.keyedIDs(for: query, keyPaths: constraint.names) {
                    let group = GroupKey(scope: constraint.scope, names: constraint.names, key: stored)
                    guard var clash = groups[group], !deleted.contains(id) else { continue }
                    if let own = clash.objects.firstIndex(where: { $0.objectID == id }) {
                        // The row is one of the save's objects, keeping its key: it holds it.
                        clash.objects.remove(at: own)
                    } else if let object = current(id), !object.isFault, Self.key(of: object, names: constraint.names) != stored {
                        continue  // the save moves the row to another key
                    }
                    clash.storedID = id
                    groups[group] = clash
                }
            }
        }
        return order.compactMap { groups[$0] }.filter(\.isClash)
    }

    /// The key loaded `object` holds now under `names` (`nil` when it lacks an attribute).
    private static func key(of object: ManagedObject, names: [String]) -> [Value]? {
        let indexes = names.compactMap(object.entity.attributeIndex)
        guard indexes.count == names.count else { return nil }
        return indexes.map { object.values[$0] }
    }

    private struct GroupKey: Hashable {
        let scope: Int
        let names: [String]
        let key: [Value]
    }

    private struct ConstraintKey: Hashable, Comparable {
        let scope: Int
        let names: [String]
        static func < (a: ConstraintKey, b: ConstraintKey) -> Bool {
            a.scope != b.scope ? a.scope < b.scope : a.names.lexicographicallyPrecedes(b.names)
        }
    }
}
