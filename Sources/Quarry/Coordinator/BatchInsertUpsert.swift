/// The upsert of a batch insert under ``BatchInsertConflictPolicy/update``: rows whose
/// uniqueness-constraint key an object already has update that object; rows of the request
/// with the same key as an earlier row update that row (the later row's values win).
///
/// A key holding `nil` never matches (as in SQL, and as the stores check uniqueness). The
/// existing objects are found by one store query per constraint and chunk of keys (`IN` lists,
/// or equalities joined by `OR` for a key of several attributes) over the entity that declares
/// the constraint, sub-entities included.
struct BatchInsertUpsert {
    /// The request's entity.
    let entity: EntityDescription
    /// The attributes the request gives, by index.
    let givenAttributes: [Int]
    /// The to-one relationships the request gives, by index.
    let givenRelationships: [Int]

    /// How many keys one query looks for.
    static let keysPerQuery = 500

    /// The changes that write `rows` (validated snapshots, in request order): inserts for rows
    /// whose key no object has, updates (checked against the version read) for the others.
    /// - Throws: ``BatchInsertError/invalidValue(entity:row:key:reason:)`` for a row whose keys
    ///   name two different objects, or an object of another entity; the store's error.
    func changes(for rows: [Snapshot], store: PersistentStore, model: ManagedObjectModel) throws -> StoreChangeSet {
        let constraints = entity.uniquenessConstraints.compactMap { names -> (names: [String], indexes: [Int])? in
            let indexes = names.compactMap(entity.attributeIndex)
            return indexes.count == names.count ? (names, indexes) : nil
        }
        var rows = rows
        // 1. Rows of the request sharing a key: the later one's given properties go into the earlier.
        var survivor = Array(rows.indices)   // the row each row was folded into (itself if it stays)
        var owners = [[[Value]: Int]](repeating: [:], count: constraints.count)
        for n in rows.indices {
            var target: Int?
            for (c, constraint) in constraints.enumerated() {
                let key = constraint.indexes.map { rows[n].values[$0] }
                guard !key.contains(where: \.isNull), let earlier = owners[c][key] else { continue }
                if let target, target != earlier {
                    throw BatchInsertError.invalidValue(entity: entity.name, row: n, key: constraint.names.joined(separator: ", "),
                                                        reason: "matches rows \(target) and \(earlier) by different uniqueness constraints")
                }
                target = earlier
            }
            if let target {
                overwrite(&rows[target], with: rows[n])
                survivor[n] = target
            }
            // The row's keys (its own, or the merged row's new ones) now belong to the survivor.
            let owner = target ?? n
            for (c, constraint) in constraints.enumerated() {
                let key = constraint.indexes.map { rows[owner].values[$0] }
                if !key.contains(where: \.isNull) { owners[c][key] = owner }
            }
        }
        let kept = rows.indices.filter { survivor[$0] == $0 }

        // 2. The existing objects holding the kept rows' keys.
        var match = [ObjectID?](repeating: nil, count: rows.count)
        for constraint in constraints {
            let scope = Self.declaringEntity(of: constraint.names, from: entity, model: model)
            var wanted: [[Value]: [Int]] = [:]
            for n in kept {
                let key = constraint.indexes.map { rows[n].values[$0] }
                if !key.contains(where: \.isNull) { wanted[key, default: []].append(n) }
            }
            let keys = Array(wanted.keys)
            for start in stride(from: 0, to: keys.count, by: Self.keysPerQuery) {
                let chunk = keys[start..<min(keys.count, start + Self.keysPerQuery)]
                let query = StoreQuery(entity: scope, includesSubentities: true, predicate: Self.predicate(constraint.names, keys: chunk),
                                       sortDescriptors: [], limit: 0, offset: 0)
                for (id, values) in try store.keyedIDs(for: query, keyPaths: constraint.names) {
                    for n in wanted[values] ?? [] {
                        if let other = match[n], other != id {
                            throw BatchInsertError.invalidValue(entity: entity.name, row: n, key: constraint.names.joined(separator: ", "),
                                                                reason: "matches two existing objects (\(other) and \(id)) by different uniqueness constraints")
                        }
                        guard model.entities[Int(id.entityIndex)].isKind(of: entity) else {
                            throw BatchInsertError.invalidValue(entity: entity.name, row: n, key: constraint.names.joined(separator: ", "),
                                                                reason: "its key belongs to \(id), a \(model.entities[Int(id.entityIndex)].name), not a \(entity.name)")
                        }
                        match[n] = id
                    }
                }
            }
        }

        // 3. Inserts and updates.
        let matched = kept.compactMap { match[$0] }
        let existing = matched.isEmpty ? [:] : try store.snapshots(for: matched)
        var changes = StoreChangeSet()
        changes.inserts.reserveCapacity(kept.count - matched.count)
        for n in kept {
            guard let id = match[n] else {
                changes.inserts.append(ObjectChange(id: .temporary(entityIndex: entity.index), snapshot: rows[n]))
                continue
            }
            // Deleted since it was found: the next attempt inserts the row instead.
            guard let old = existing[id] else { throw MergeConflictError(conflicts: []) }
            var new = old
            var changed = PropertyMask()
            for a in givenAttributes where new.values[a] != rows[n].values[a] {
                new.values[a] = rows[n].values[a]
                changed.insert(a)
            }
            for r in givenRelationships where new.toOne[r] != rows[n].toOne[r] {
                new.toOne[r] = rows[n].toOne[r]
                changed.insert(entity.attributes.count + r)
            }
            if !changed.isEmpty { changes.updates.append(ObjectChange(id: id, snapshot: new, committed: old, changed: changed)) }
        }
        return changes
    }

    /// Copies the given properties of `later` onto `earlier` (the later row wins).
    private func overwrite(_ earlier: inout Snapshot, with later: Snapshot) {
        for a in givenAttributes { earlier.values[a] = later.values[a] }
        for r in givenRelationships { earlier.toOne[r] = later.toOne[r] }
    }

    /// The topmost entity from `entity` up that has every attribute of `names`: the rows a
    /// uniqueness constraint covers.
    static func declaringEntity(of names: [String], from entity: EntityDescription, model: ManagedObjectModel) -> EntityDescription {
        var scope = entity
        while let parentName = scope.parentName, let parent = model.entity(named: parentName),
              names.allSatisfy({ parent.attributeIndex($0) != nil }) {
            scope = parent
        }
        return scope
    }

    /// Rows whose `names` hold one of `keys`: an `IN` list for one attribute, equalities
    /// joined by `OR` for several.
    static func predicate(_ names: [String], keys: ArraySlice<[Value]>) -> ObjectPredicate {
        if names.count == 1 {
            return .comparison(PredicateComparison(.keyPath(names[0]), .in, .list(keys.map { .constant($0[0]) })))
        }
        return .or(keys.map { key in
            .and(zip(names, key).map { .comparison(PredicateComparison(.keyPath($0), .equal, .constant($1))) })
        })
    }
}
