import Foundation

extension AggregateResultsController {
    /// What one change event does to the table, decided before it changes.
    struct Decisions {
        /// Objects that match after the event, with their key-path values.
        var upserts: [(id: ObjectID, keyValues: [Value])] = []
        /// Members that still match, by their row in the table (looked up once), with their
        /// new key-path values.
        var rowUpdates: [(row: Int32, keyValues: [Value])] = []
        /// Objects that no longer match, or were deleted.
        var leaving: [ObjectID] = []
        /// Merged objects only a store query can decide.
        var queried: [ObjectID] = []
        /// Whether a related object a key path reads through changed: compute every group again.
        var recompute = false
        /// Objects of the request's entity the event concerned.
        var considered = 0
    }

    /// Applies one objects-did-change event and reports the groups it changed.
    func handle(_ change: ObjectsDidChange) {
        guard fetched else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        var report = AggregateUpdateReport()
        if let readError = change.readError {
            self.report(FetchedResultsError.contextReadFailed(entity: entity.name, reason: readError.description))
        }
        if change.invalidatedAll {
            do {
                try performFetch()
                report.recomputed = true
                report.seconds = Self.seconds(since: start)
                lastUpdate = report
                delegate?.controllerDidResetContent(self)
            } catch {
                self.report(FetchedResultsError.refetchFailed(entity: entity.name, reason: "\(error)"))
            }
            return
        }
        var decisions = Decisions()
        relatedReads = 0
        if change.storeChangedExternally {
            decisions.recompute = true
        } else {
            decide(change, into: &decisions)
        }
        report.objects = decisions.considered
        report.storeQueries = relatedReads
        if decisions.recompute {
            report.recomputed = true
            recomputeAndReport(start: start, report: report)
            return
        }
        if !decisions.queried.isEmpty {
            report.storeQueries += 1
            do {
                try decideByQuery(&decisions)
            } catch {
                // The rest of the event still applies; these objects keep what they contributed
                // until a later event or a fetch places them.
                self.report(FetchedResultsError.mergeQueryFailed(entity: entity.name, objects: decisions.queried.count, reason: "\(error)"))
            }
        }
        var touched = Set<Int32>()
        for id in decisions.leaving {
            if let g = table.remove(id) { touched.insert(g) }
        }
        // Rows first: a row given here is its member's (no other decision frees it).
        for (row, values) in decisions.rowUpdates {
            guard let moved = table.update(row: row, keyValues: values) else { continue }
            if let old = moved.old { touched.insert(old) }
            touched.insert(moved.new)
        }
        for (id, values) in decisions.upserts {
            guard let moved = table.upsert(id, keyValues: values) else { continue }
            if let old = moved.old { touched.insert(old) }
            touched.insert(moved.new)
        }
        table.settle(touched)
        report.groups = applyAndReport(touched: touched)
        report.seconds = Self.seconds(since: start)
        lastUpdate = report
    }

    /// Whether objects of `id`'s entity are aggregated.
    private func ours(_ id: ObjectID) -> Bool {
        let e = Int(id.entityIndex)
        return e >= 0 && e < isOurs.count && isOurs[e]
    }

    /// Whether an update changing `bits` of an object of entity index `e` regroups objects
    /// related to it.
    private func regroups(_ e: Int, bits: UInt64) -> Bool {
        e >= 0 && e < dependencyBits.count && dependencyBits[e] & bits != 0
    }

    /// The property bits `change` names as changed for `id`, or every bit when unknown.
    private func changedBits(_ id: ObjectID, in change: ObjectsDidChange) -> UInt64 {
        guard let keys = change.changedKeys[id] else { return .max }
        let e = Int(id.entityIndex)
        guard e >= 0 && e < context.model.entities.count else { return .max }
        return FetchedResultsController.bits(of: keys, in: context.model.entities[e])
    }

    /// Decides every object of `change` that can be decided without the store.
    private func decide(_ change: ObjectsDidChange, into decisions: inout Decisions) {
        var decided = Set<ObjectID>()
        for (temporary, permanent) in change.permanentIDs {
            // A saved insert keeps its contribution under its permanent ID.
            guard let values = table.keyValues(of: temporary) else { continue }
            decisions.leaving.append(temporary)
            decisions.upserts.append((permanent, values))
            decided.insert(permanent)
        }
        for object in change.updated + change.refreshed {
            let id = object.objectID, e = Int(id.entityIndex)
            if e >= 0, e < dependencyBits.count, dependencyBits[e] != 0, regroups(e, bits: changedBits(id, in: change)) {
                decisions.recompute = true
                return
            }
        }
        for object in change.inserted + change.updated + change.refreshed where ours(object.objectID) {
            let id = object.objectID
            guard decided.insert(id).inserted else { continue }
            decisions.considered += 1
            if object.isDeleted || object.managedObjectContext == nil || !(evaluator?.evaluate(object) ?? true) {
                decisions.leaving.append(id)
            } else {
                decisions.upserts.append((id, keyValues(of: object)))
            }
        }
        for object in change.deleted where ours(object.objectID) {
            decisions.considered += 1
            decisions.leaving.append(object.objectID)
            decided.insert(object.objectID)
        }
        for id in change.mergedDeletedIDs where ours(id) {
            decisions.considered += 1
            decisions.leaving.append(id)
            decided.insert(id)
        }
        decideMerged(change.mergedInserted, updated: false, change: change, decided: decided, into: &decisions)
        guard !decisions.recompute else { return }
        decideMerged(change.mergedUpdated, updated: true, change: change, decided: decided, into: &decisions)
    }

    /// Decides the objects a merge changed that are not registered here, from the state the
    /// save carried and the properties it changed, where those tell.
    private func decideMerged(_ merged: MergedObjects, updated: Bool, change: ObjectsDidChange, decided: Set<ObjectID>,
                              into decisions: inout Decisions) {
        let ids = merged.ids
        let carried = merged.carriesSnapshots
        let knowsBits = updated && merged.carriesChangedBits
        for (n, id) in ids.enumerated() {
            let e = Int(id.entityIndex)
            let bits: UInt64 = updated ? (knowsBits ? merged.changedBits[n] : changedBits(id, in: change)) : .max
            if updated && regroups(e, bits: bits) {
                decisions.recompute = true
                return
            }
            guard ours(id), decided.isEmpty || !decided.contains(id) else { continue }
            // Changed in nothing the request reads: it keeps its contribution (or its absence).
            if updated && bits & relevantBits[e] == 0 { continue }
            decisions.considered += 1
            let snapshot = carried ? merged.snapshots[n] : nil
            let subject = snapshot.map(SnapshotSubject.init(snapshot:))
            guard let row = table.row(of: id) else {
                // Not a member before: it stays out unless the predicate's keys changed.
                if updated && bits & predicateBits[e] == 0 { continue }
                if let snapshot, let subject, let snapshotTest, let values = carriedValues(of: snapshot, merged: merged) {
                    if snapshotTest(subject) { decisions.upserts.append((id, values)) }
                } else {
                    decisions.queried.append(id)
                }
                continue
            }
            // A member: what changed is read from the carried state where it is the object's
            // own, or its to-one destination's whose value is kept.
            if bits & predicateBits[e] != 0 {
                guard let subject, let snapshotTest else { decisions.queried.append(id); continue }
                if !snapshotTest(subject) { decisions.leaving.append(id); continue }
            }
            var values = table.keyValues(ofRow: row)
            var needsStore = false
            for k in plans.indices where bits & keyPathBits[k][e] != 0 {
                guard let snapshot, let value = carriedValue(k, of: snapshot, merged: merged) else { needsStore = true; break }
                values[k] = value
            }
            if needsStore { decisions.queried.append(id) } else { decisions.rowUpdates.append((row, values)) }
        }
    }

    /// Decides the queried objects in one store query restricted to them: the rows it returns
    /// match, with their values; the others leave.
    /// - Throws: the query's error (nothing is decided then).
    private func decideByQuery(_ decisions: inout Decisions) throws {
        var query = fetch.query
        query.sortDescriptors = []
        query.restrictedTo = decisions.queried
        var found = Set<ObjectID>()
        let count = fetch.keyPaths.count
        var rows: [(ObjectID, [Value])] = []
        try context.readStore.forEachKeyedRow(for: query, keyPaths: fetch.keyPaths) { row in
            let id = row.objectID
            found.insert(id)
            rows.append((id, (0..<count).map { row.value(ofKey: $0) }))
        }
        decisions.upserts += rows
        decisions.leaving += decisions.queried.filter { !found.contains($0) }
        decisions.queried = []
    }

    /// Computes every group again from the store and reports the difference.
    private func recomputeAndReport(start: UInt64, report: AggregateUpdateReport) {
        var report = report
        do {
            forgetRelatedValues()
            let built = try buildTable()
            let (newOrder, newResults) = try Self.arrange(built, fetch: fetch)
            // Group IDs differ between tables: the old groups are found again by key.
            let before = order.map { (key: table.groupKeys[Int($0)], values: results[$0] ?? [:]) }
            table = built
            order = newOrder
            results = newResults
            report.groups = reportDifference(before: before)
        } catch {
            self.report(FetchedResultsError.refetchFailed(entity: entity.name, reason: "\(error)"))
        }
        report.seconds = Self.seconds(since: start)
        lastUpdate = report
    }

    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
