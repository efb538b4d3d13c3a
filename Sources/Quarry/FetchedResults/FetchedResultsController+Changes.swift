extension FetchedResultsController {
    /// Applies one objects-did-change event incrementally and reports it to the delegate.
    func handle(_ change: ObjectsDidChange) {
        guard fetched else { return }
        if change.invalidatedAll {
            try? performFetch()
            delegate?.controllerDidResetContent(self)
            return
        }
        let kinds = Set(fetchRequest.includesSubentities ? entity.selfAndDescendantIndices : [entity.index])
        func ours(_ id: ObjectID) -> Bool { kinds.contains(Int(id.entityIndex)) }

        var upserts: [ObjectID: [Value]] = [:]     // match after the event, with their new keys
        var leaving = Set<ObjectID>()               // no longer match, or deleted
        var decided = Set<ObjectID>()
        var knownOldIndex: [ObjectID: Int] = [:]
        // Saved objects keep their place under their new permanent IDs (ties may reorder):
        // the entry under the temporary ID is dropped and re-added under the permanent one.
        for (temporary, permanent) in change.permanentIDs {
            guard let i = results.position(of: temporary) else { continue }
            knownOldIndex[permanent] = i
            upserts[permanent] = results.keys(at: i)
        }
        for object in change.inserted + change.updated + change.refreshed where ours(object.objectID) {
            guard decided.insert(object.objectID).inserted else { continue }
            if object.isDeleted || object.managedObjectContext == nil {
                leaving.insert(object.objectID)
            } else if evaluator?.evaluate(object) ?? true {
                upserts[object.objectID] = keys(of: object)
            } else {
                leaving.insert(object.objectID)
            }
        }
        for object in change.deleted where ours(object.objectID) {
            decided.insert(object.objectID)
            leaving.insert(object.objectID)
            upserts[object.objectID] = nil
        }
        for id in change.mergedDeletedIDs where ours(id) {
            decided.insert(id)
            leaving.insert(id)
            upserts[id] = nil
        }
        // Objects a merge changed that are not registered here: one query for all of them.
        let unregistered = (change.mergedInsertedIDs + change.mergedUpdatedIDs).filter { ours($0) && !decided.contains($0) }
        if !unregistered.isEmpty {
            var query = (try? context.storeQuery(for: fetchRequest)) ?? StoreQuery(entity: entity)
            query.limit = 0
            query.offset = 0
            query.sortDescriptors = []
            query.restrictedTo = unregistered
            let found = (try? context.coordinator.store.keyedIDs(for: query, keyPaths: fetchRequest.sortDescriptors.map(\.keyPath))) ?? []
            var matched = Set<ObjectID>()
            for row in found {
                upserts[row.id] = row.keys
                matched.insert(row.id)
            }
            for id in unregistered where !matched.contains(id) { leaving.insert(id) }
        }
        leaving.subtract(upserts.keys)
        apply(upserts: upserts, leaving: leaving, knownOldIndex: knownOldIndex)
    }

    /// Moves the changed entries and tells the delegate, in Core Data's order and index-path semantics.
    private func apply(upserts: [ObjectID: [Value]], leaving: Set<ObjectID>, knownOldIndex: [ObjectID: Int]) {
        // Old positions of everything that changed and was indexed.
        var oldIndex = knownOldIndex
        for id in leaving.union(upserts.keys) where oldIndex[id] == nil {
            if let i = results.position(of: id) { oldIndex[id] = i }
        }
        let deletes = leaving.compactMap { id in oldIndex[id].map { (id, $0) } }
        guard !deletes.isEmpty || !upserts.isEmpty else { return }

        let oldStarts = sectionStarts
        let oldNames = sectionNames
        let placed = results.apply(dropping: Set(oldIndex.values), adding: upserts.map { .init(id: $0.key, keys: $0.value) })
        rebuildSections()

        // New positions of the upserted objects.
        var newIndex: [ObjectID: Int?] = [:]
        newIndex.reserveCapacity(placed.count)
        for p in placed { newIndex[p.id] = p.index }

        var objectChanges: [(ObjectID, RowPath?, ResultsChangeType, RowPath?)] = []
        for (id, i) in deletes.sorted(by: { $0.1 > $1.1 }) {
            objectChanges.append((id, path(ofIndex: i, starts: oldStarts), .delete, nil))
        }
        var inserts: [(ObjectID, RowPath)] = []
        var moves: [(ObjectID, RowPath, RowPath)] = []
        var updates: [(ObjectID, RowPath)] = []
        // An object changed in place is reported as an update only if it keeps its order
        // relative to every object that stays put, so that applying the deletes and then the
        // inserts to the old state gives the new one; otherwise it moves.
        let changedOld = oldIndex.values.sorted()
        let changedNew = newIndex.values.compactMap { $0 }.sorted()
        func lowerBound(_ xs: [Int], _ x: Int) -> Int {
            var low = 0, high = xs.count
            while low < high { let mid = (low + high) / 2; if xs[mid] < x { low = mid + 1 } else { high = mid } }
            return low
        }
        var candidates: [(id: ObjectID, old: Int, new: Int)] = []
        for (id, n) in newIndex {
            guard let n else { continue }
            guard let o = oldIndex[id] else { inserts.append((id, path(ofIndex: n))); continue }
            let sameSection = oldNames[path(ofIndex: o, starts: oldStarts).section] == sectionNames[path(ofIndex: n).section]
            if sameSection && o - lowerBound(changedOld, o) == n - lowerBound(changedNew, n) {
                candidates.append((id, o, n))
            } else {
                moves.append((id, path(ofIndex: o, starts: oldStarts), path(ofIndex: n)))
            }
        }
        // Among the candidates, keep the longest run whose new order follows the old order.
        candidates.sort { $0.old < $1.old }
        let keep = Self.longestIncreasing(candidates.map(\.new))
        for (k, c) in candidates.enumerated() {
            if keep.contains(k) {
                updates.append((c.id, path(ofIndex: c.old, starts: oldStarts)))
            } else {
                moves.append((c.id, path(ofIndex: c.old, starts: oldStarts), path(ofIndex: c.new)))
            }
        }
        // A move may not go to the same index path: report it as a delete and an insert.
        for (id, from, to) in moves where from == to {
            objectChanges.append((id, from, .delete, nil))
            inserts.append((id, to))
        }
        moves.removeAll { $0.1 == $0.2 }
        objectChanges += inserts.sorted { $0.1 < $1.1 }.map { ($0.0, nil, .insert, $0.1) }
        objectChanges += moves.sorted { $0.2 < $1.2 }.map { ($0.0, $0.1, .move, $0.2) }
        objectChanges += updates.sorted { $0.1 < $1.1 }.map { ($0.0, $0.1, .update, nil) }

        let oldSet = Set(oldNames), newSet = Set(sectionNames)
        let deletedSections = oldNames.indices.filter { !newSet.contains(oldNames[$0]) }
        let insertedSections = sectionNames.indices.filter { !oldSet.contains(sectionNames[$0]) }

        guard let delegate else { return }
        if let snapshotDelegate = delegate as? FetchedResultsSnapshotDelegate {
            var snap = snapshot
            snap.reloaded = Set(updates.map(\.0))
            snapshotDelegate.controller(self, didChangeContentWith: snap)
            return
        }
        delegate.controllerWillChangeContent(self)
        for s in deletedSections.reversed() {
            delegate.controller(self, didChangeSection: SectionInfo(name: oldNames[s], indexTitle: SectionInfo.indexTitle(for: oldNames[s]), numberOfObjects: 0),
                                atSectionIndex: s, for: .delete)
        }
        let current = sections
        for s in insertedSections { delegate.controller(self, didChangeSection: current[s], atSectionIndex: s, for: .insert) }
        for (id, old, type, new) in objectChanges {
            delegate.controller(self, didChangeObject: id, at: old, for: type, newIndexPath: new)
        }
        delegate.controllerDidChangeContent(self)
    }

    /// The indexes of one longest strictly increasing subsequence of `xs` (patience sorting).
    static func longestIncreasing(_ xs: [Int]) -> Set<Int> {
        var tails: [Int] = []          // index into xs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: xs.count)
        for (i, x) in xs.enumerated() {
            var low = 0, high = tails.count
            while low < high { let mid = (low + high) / 2; if xs[tails[mid]] < x { low = mid + 1 } else { high = mid } }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 { result.insert(k); k = previous[k] }
        return result
    }
}
