extension AggregateResultsController {
    /// The most destination values kept per key path; past it they are read again as needed.
    static let relatedValuesLimit = 100_000

    /// The values of every key path for a saved object whose carried state is `snapshot` (of
    /// `merged`), or `nil` when a key path reaches further than the object's own properties and
    /// one to-one step (only the store can tell then).
    func carriedValues(of snapshot: Snapshot, merged: MergedObjects) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(plans.count)
        for k in plans.indices {
            guard let value = carriedValue(k, of: snapshot, merged: merged) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The value of key path `k` for the carried state `snapshot`: its own attribute, or its
    /// to-one destination's attribute from the values kept — on a miss, read for every
    /// destination `merged` names that is not known yet, in one query. `nil` when the path
    /// reaches further, or the read failed (the caller asks the store for the object then).
    func carriedValue(_ k: Int, of snapshot: Snapshot, merged: MergedObjects) -> Value? {
        let plan = plans[k]
        if plan.isLocal { return plan.singleValue(of: SnapshotSubject(snapshot: snapshot)) }
        guard let hop = oneHops[k] else { return nil }
        guard hop.relationship < snapshot.toOne.count, let destination = snapshot.toOne[hop.relationship] else { return .null }
        if let value = relatedValues[k][destination] { return value }
        do {
            try readRelatedValues(k, hop, namedBy: merged)
        } catch {
            return nil
        }
        return relatedValues[k][destination]
    }

    /// Reads the attribute of `hop` for every destination the saved objects of `merged` (of
    /// the request's entities) name and ``relatedValues`` does not hold; a destination the
    /// store does not have reads as `nil`, as the store's join does.
    private func readRelatedValues(_ k: Int, _ hop: ToOneHop, namedBy merged: MergedObjects) throws {
        var missing = Set<ObjectID>()
        for (id, snapshot) in zip(merged.ids, merged.snapshots) where isOurs[Int(id.entityIndex)] && hop.relationship < snapshot.toOne.count {
            if let d = snapshot.toOne[hop.relationship], relatedValues[k][d] == nil { missing.insert(d) }
        }
        if relatedValues[k].count + missing.count > Self.relatedValuesLimit { relatedValues[k] = [:] }
        relatedReads += 1
        relatedValues[k].merge(try hop.values(of: missing, in: context.readStore)) { _, read in read }
    }

    /// Forgets the destination values kept (a recompute or a fetch reads them again).
    func forgetRelatedValues() {
        relatedValues = plans.map { _ in [:] }
    }
}
