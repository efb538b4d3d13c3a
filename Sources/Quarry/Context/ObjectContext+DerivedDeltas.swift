/// Incremental `@sum` and `@count` (as Core Data's SQL triggers keep them): a derived
/// `items.@sum.price` or `items.@count`, over a to-many whose inverse is a to-one, follows a
/// save's changed, inserted, moved and deleted items by adding each one's difference to its
/// order's stored value, instead of reading every item of every order the save reaches.
extension ObjectContext {
    /// One derived attribute kept by differences, and the trigger whose walk it replaces.
    struct DerivedDelta {
        /// The trigger (index into ``DerivedAttributePlan/remoteTriggers``).
        let trigger: Int
        /// The derived attribute's index in its entity.
        let attribute: Int
        /// The summed attribute of the items (`nil` for `@count`).
        let summed: Int?
        /// Whether the derived attribute holds an integer (else a double).
        let isInteger: Bool
        /// The items' to-one back to the source.
        let inverse: Int
        /// The items' properties whose change matters (the summed attribute, the inverse).
        let properties: [Int]
    }

    /// The plan's derived attributes that differences can keep: one to-many step, `@count` or
    /// `@sum` of an integer or double attribute, a to-one inverse.
    static func deltaCapable(derivedByEntity: [[DerivedAttributePlan.Derived]], remoteTriggers: [DerivedAttributePlan.RemoteTrigger],
                             model: ManagedObjectModel) -> [DerivedDelta] {
        var result: [DerivedDelta] = []
        for (t, trigger) in remoteTriggers.enumerated() where trigger.backPath.count == 1 {
            let items = model.entities[trigger.entity]
            let back = trigger.backPath[0]
            guard back.entity == trigger.entity, !items.relationships[back.relationship].isToMany else { continue }
            guard let derived = derivedByEntity[trigger.sourceEntity].first(where: { $0.attribute == trigger.derivedAttribute }),
                  let path = derived.plan, path.steps.count == 1, case .toMany = path.steps[0] else { continue }
            let isInteger = [.integer16, .integer32, .integer64].contains(derived.type)
            guard isInteger || derived.type == .double else { continue }
            switch path.terminal {
            case .count:
                result.append(DerivedDelta(trigger: t, attribute: derived.attribute, summed: nil, isInteger: isInteger,
                                           inverse: back.relationship, properties: trigger.properties))
            case .aggregate(.sum, let a) where isInteger ? [.integer16, .integer32, .integer64].contains(items.attributeTypes[a])
                : [.integer16, .integer32, .integer64, .double].contains(items.attributeTypes[a]):
                result.append(DerivedDelta(trigger: t, attribute: derived.attribute, summed: a, isInteger: isInteger,
                                           inverse: back.relationship, properties: trigger.properties))
            default:
                continue
            }
        }
        return result
    }

    /// Where a source's differences go: into its values in memory, or to the store as a
    /// ``DerivedIncrement`` over the row as loaded (`nil`: not loaded).
    enum DeltaTarget {
        case memory
        case store(base: Snapshot?)
    }

    /// Adds each changed item's difference to its sources' derived values: in memory, recording
    /// the new values as changes, or, for a source `target` sends to the store, as a
    /// ``DerivedIncrement`` the store applies (``pendingStoreIncrements``). `target` is asked
    /// once per source. `changed` lists the save's inserted, updated and deleted objects.
    /// Returns whether any value changed in memory.
    func applyDerivedDeltas(_ deltas: [DerivedDelta], plan: DerivedAttributePlan, changed: [ManagedObject],
                            target: (ObjectID) -> DeltaTarget) throws -> Bool {
        var any = false
        var targets: [ObjectID: DeltaTarget] = [:]
        var increments: [ObjectID: (differences: [(attribute: Int, by: Value)], base: Snapshot?)] = [:]
        for delta in deltas {
            let trigger = plan.remoteTriggers[delta.trigger]
            let items = model.entities[trigger.entity]
            // Per source: the difference as a double and as an integer (one table, one pass).
            var differences: [ObjectID: (sum: Double, count: Int64)] = [:]
            func contribution(_ values: [Value]?) -> (Double, Int64) {
                guard let summed = delta.summed else { return (1, 1) }
                switch values.map({ summed < $0.count ? $0[summed] : .null }) ?? .null {
                case .integer(let i): return (Double(i), i)
                case .double(let d): return (d, 0)
                default: return (0, 0)
                }
            }
            func add(_ id: ObjectID?, _ value: (Double, Int64), sign: Int64) {
                guard let id else { return }
                let found = differences[id] ?? (0, 0)
                differences[id] = sign > 0 ? (found.sum + value.0, found.count &+ value.1) : (found.sum - value.0, found.count &- value.1)
            }
            for item in changed where item.entity.isKind(of: items) {
                let inserted = item.inserted, deleted = item.deleted
                guard inserted || deleted || delta.properties.contains(where: item.changedMask.contains) else { continue }
                let old = inserted ? nil : item.committed
                let oldSource = old.flatMap { delta.inverse < $0.toOne.count ? $0.toOne[delta.inverse] : nil }
                let newSource = deleted ? nil : item.toOne[delta.inverse]
                if let old { add(oldSource, contribution(old.values), sign: -1) }
                if !deleted { add(newSource, contribution(item.values), sign: 1) }
            }
            for (id, difference) in differences {
                let destination = targets[id] ?? target(id)
                targets[id] = destination
                if case .store(let base) = destination {
                    let by: Value = delta.isInteger ? .integer(difference.count) : .double(difference.sum)
                    if by != .integer(0) && by != .double(0) { increments[id, default: ([], base)].differences.append((delta.attribute, by)) }
                    continue
                }
                let source = object(with: id)
                source.fireFault()
                guard !source.faulted, !source.deleted else { continue }
                let current = source.values[delta.attribute]
                let next: Value
                if delta.isInteger {
                    let base: Int64
                    if case .integer(let i) = current { base = i } else { base = 0 }
                    let (total, overflow) = base.addingReportingOverflow(difference.count)
                    guard !overflow else {
                        throw QuarryError.typeMismatch(entity: source.entity.name, key: source.entity.attributes[delta.attribute].name,
                                                       expected: "a sum within 64 bits", got: "\(base) + \(difference.count)")
                    }
                    next = .integer(total)
                } else {
                    let base: Double
                    switch current {
                    case .double(let d): base = d
                    case .integer(let i): base = Double(i)
                    default: base = 0
                    }
                    next = .double(base + difference.sum)
                }
                if next != current {
                    try source.setValue(next, at: delta.attribute)
                    any = true
                }
            }
        }
        pendingStoreIncrements = increments.keys.sorted().map { id in
            let found = increments[id]!
            return DerivedIncrement(id: id, differences: found.differences.sorted { $0.attribute < $1.attribute }, base: found.base)
        }
        return any
    }
}
