extension FetchedResultsController {
    /// One object that matches the request after a change event, with its sort keys then.
    struct Upsert {
        var entry: SortedResults.Entry
        /// Its entry before the event when already known (a temporary ID made permanent: the
        /// temporary's entry); otherwise looked up by ID.
        var renamedFrom: SortedResults.Location?
        /// A later deletion in the same event overrides it.
        var cancelled = false
    }

    /// What a change event does to each object it concerns, decided before the results change.
    struct Decisions {
        /// Objects that match the request after the event, with their sort keys.
        var upserts: [Upsert] = []
        /// Objects that no longer match, or were deleted.
        var leaving: [ObjectID] = []
        /// Objects updated in keys the request does not read: they stay where they are.
        var untouched: [ObjectID] = []
    }

    /// The decision made for an object so far in one event.
    private enum Decision {
        /// It is ``Decisions/upserts``[index].
        case upsert(Int)
        case leaving
    }

    /// Applies one objects-did-change event incrementally and reports it to the delegate.
    ///
    /// Registered objects are evaluated in memory. Objects a merge changed that are not
    /// registered are decided without loading them: an update to none of the keys the
    /// request reads (``relevantKeys``) leaves an object where it is; otherwise the state the
    /// save carried is evaluated (``snapshotTest``), and only when the request reads through
    /// a relationship are they decided together in one store query.
    func handle(_ change: ObjectsDidChange) {
        guard fetched else { return }
        if let readError = change.readError {
            report(FetchedResultsError.contextReadFailed(entity: entity.name, reason: readError.description))
        }
        if change.invalidatedAll {
            do {
                try performFetch()
                delegate?.controllerDidResetContent(self)
            } catch {
                report(FetchedResultsError.refetchFailed(entity: entity.name, reason: "\(error)"))
            }
            return
        }
        if change.storeChangedExternally {
            refetchReportingChanges(refreshed: change.refreshed.map(\.objectID))
            return
        }
        var decisions = Decisions()
        let queried = decide(change, into: &decisions)
        if !queried.isEmpty {
            do {
                try decideByQuery(queried, into: &decisions)
            } catch {
                // The rest of the event still applies; these objects stay where they were
                // until a later event or a refetch places them.
                applyAndReport(decisions)
                report(FetchedResultsError.mergeQueryFailed(entity: entity.name, objects: queried.count, reason: "\(error)"))
                return
            }
        }
        applyAndReport(decisions)
    }

    /// Whether objects of `id`'s entity belong in the results.
    private func ours(_ id: ObjectID) -> Bool {
        let e = Int(id.entityIndex)
        return e >= 0 && e < isOurs.count && isOurs[e]
    }

    /// Decides every object of `change` that can be decided without the store into
    /// `decisions`; returns the merged objects only a store query can decide.
    private func decide(_ change: ObjectsDidChange, into decisions: inout Decisions) -> [ObjectID] {
        var decided: [ObjectID: Decision] = [:]
        // Saved objects keep their place under their new permanent IDs (ties may reorder):
        // the entry under the temporary ID is dropped and re-added under the permanent one.
        for (temporary, permanent) in change.permanentIDs {
            guard let l = results.location(of: temporary) else { continue }
            decided[permanent] = .upsert(decisions.upserts.count)
            decisions.upserts.append(Upsert(entry: .init(id: permanent, keys: results.keys(at: l)), renamedFrom: l))
        }
        for object in change.inserted + change.updated + change.refreshed where ours(object.objectID) {
            let id = object.objectID
            guard decided[id] == nil else { continue }
            if object.isDeleted || object.managedObjectContext == nil || !(evaluator?.evaluate(object) ?? true) {
                decided[id] = .leaving
                decisions.leaving.append(id)
            } else {
                decided[id] = .upsert(decisions.upserts.count)
                decisions.upserts.append(Upsert(entry: .init(id: id, keys: keys(of: object))))
            }
        }
        func delete(_ id: ObjectID) {
            switch decided[id] {
            case .leaving: return
            case .upsert(let u): decisions.upserts[u].cancelled = true
            case nil: break
            }
            decided[id] = .leaving
            decisions.leaving.append(id)
        }
        for object in change.deleted where ours(object.objectID) { delete(object.objectID) }
        for id in change.mergedDeletedIDs where ours(id) { delete(id) }

        // Objects a merge changed that are not registered here.
        var queried: [ObjectID] = []
        func decideMerged(_ merged: MergedObjects, updated: Bool) {
            let ids = merged.ids, snapshots = merged.snapshots
            let test = merged.carriesSnapshots ? snapshotTest : nil
            let bits = updated && merged.carriesChangedBits && !relevantBits.isEmpty ? merged.changedBits : nil
            decisions.upserts.reserveCapacity(decisions.upserts.count + ids.count)
            for (n, id) in ids.enumerated() where ours(id) && (decided.isEmpty || decided[id] == nil) {
                // Updated only in keys the request does not read: it stays where it is.
                var irrelevant = false
                if let bits {
                    irrelevant = bits[n] & relevantBits[Int(id.entityIndex)] == 0
                } else if updated, let relevantKeys, let changed = change.changedKeys[id] {
                    irrelevant = changed.isDisjoint(with: relevantKeys)
                }
                if irrelevant {
                    decisions.untouched.append(id)
                } else if let test {
                    let subject = SnapshotSubject(snapshot: snapshots[n])
                    if test(subject) {
                        decisions.upserts.append(Upsert(entry: .init(id: id, keys: SortedResults.Keys(count: keyPlans.count) { keyPlans[$0].singleValue(of: subject) })))
                    } else {
                        decisions.leaving.append(id)
                    }
                } else {
                    queried.append(id)
                }
            }
        }
        decideMerged(change.mergedInserted, updated: false)
        decideMerged(change.mergedUpdated, updated: true)
        return queried
    }

    /// Decides `queried` (merged objects that are not registered, under a request that reads
    /// through a relationship) in one store query: the ones it returns match, with their keys.
    /// - Throws: the query's error (nothing is decided then).
    private func decideByQuery(_ queried: [ObjectID], into decisions: inout Decisions) throws {
        mergeQueries += 1
        var query = try context.storeQuery(for: fetchRequest)
        query.limit = 0
        query.offset = 0
        query.sortDescriptors = []
        query.restrictedTo = queried
        let found = try context.readStore.keyedIDs(for: query, keyPaths: fetchRequest.sortDescriptors.map(\.keyPath))
        var matched = Set<ObjectID>()
        for row in found {
            decisions.upserts.append(Upsert(entry: .init(id: row.id, keys: row.keys)))
            matched.insert(row.id)
        }
        for id in queried where !matched.contains(id) { decisions.leaving.append(id) }
    }
}
