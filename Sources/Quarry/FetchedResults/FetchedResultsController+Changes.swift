import CPrefetch

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

    /// Applies one objects-did-change event incrementally and reports it to the delegate.
    ///
    /// Registered objects are evaluated in memory. Objects a merge changed that are not
    /// registered are decided without loading them: an update to none of the keys the
    /// request reads (``relevantKeys``) leaves an object where it is; otherwise the state the
    /// save carried is evaluated (``snapshotTest``), and only when the request reads through
    /// a relationship are they decided together in one store query.
    func handle(_ change: ObjectsDidChange) {
        guard fetched else { return }
        if change.invalidatedAll {
            try? performFetch()
            delegate?.controllerDidResetContent(self)
            return
        }
        if change.storeChangedExternally {
            refetchReportingChanges(refreshed: change.refreshed.map(\.objectID))
            return
        }
        func ours(_ id: ObjectID) -> Bool { let e = Int(id.entityIndex); return e >= 0 && e < isOurs.count && isOurs[e] }

        var upserts: [Upsert] = []
        var leaving: [ObjectID] = []                // no longer match, or deleted
        var untouched: [ObjectID] = []              // updated in keys the request does not read
        var decided: [ObjectID: Int] = [:]          // index in `upserts`, or -1 when leaving
        // Saved objects keep their place under their new permanent IDs (ties may reorder):
        // the entry under the temporary ID is dropped and re-added under the permanent one.
        for (temporary, permanent) in change.permanentIDs {
            guard let l = results.location(of: temporary) else { continue }
            decided[permanent] = upserts.count
            upserts.append(Upsert(entry: .init(id: permanent, keys: results.keys(at: l)), renamedFrom: l))
        }
        for object in change.inserted + change.updated + change.refreshed where ours(object.objectID) {
            let id = object.objectID
            guard decided[id] == nil else { continue }
            if object.isDeleted || object.managedObjectContext == nil || !(evaluator?.evaluate(object) ?? true) {
                decided[id] = -1
                leaving.append(id)
            } else {
                decided[id] = upserts.count
                upserts.append(Upsert(entry: .init(id: id, keys: keys(of: object))))
            }
        }
        func delete(_ id: ObjectID) {
            if let u = decided[id] {
                guard u >= 0 else { return }
                upserts[u].cancelled = true
            }
            decided[id] = -1
            leaving.append(id)
        }
        for object in change.deleted where ours(object.objectID) { delete(object.objectID) }
        for id in change.mergedDeletedIDs where ours(id) { delete(id) }

        // Objects a merge changed that are not registered here.
        var queried: [ObjectID] = []
        func decideMerged(_ ids: [ObjectID], _ snapshots: [Snapshot], updated: Bool) {
            let test = snapshots.count == ids.count ? snapshotTest : nil
            let bits = updated && change.mergedUpdatedBits.count == ids.count && !relevantBits.isEmpty ? change.mergedUpdatedBits : nil
            upserts.reserveCapacity(upserts.count + ids.count)
            // The carried states were built on the saving context's thread: their values are
            // in another core's cache. Ask for them a few objects ahead.
            let ahead = 8
            if test != nil {
                for n in 0..<min(ahead, ids.count) { prefetchValues(of: snapshots, n) }
            }
            for (n, id) in ids.enumerated() where ours(id) && (decided.isEmpty || decided[id] == nil) {
                if test != nil && n + ahead < ids.count { prefetchValues(of: snapshots, n + ahead) }
                // Updated only in keys the request does not read: it stays where it is.
                var irrelevant = false
                if let bits {
                    irrelevant = bits[n] & relevantBits[Int(id.entityIndex)] == 0
                } else if updated, let relevantKeys, let changed = change.changedKeys[id] {
                    irrelevant = changed.isDisjoint(with: relevantKeys)
                }
                if irrelevant {
                    untouched.append(id)
                } else if let test {
                    let subject = SnapshotSubject(snapshot: snapshots[n])
                    if test(subject) {
                        upserts.append(Upsert(entry: .init(id: id, keys: SortedResults.Keys(count: keyPlans.count) { keyPlans[$0].value(of: subject) })))
                    } else {
                        leaving.append(id)
                    }
                } else {
                    queried.append(id)
                }
            }
        }
        decideMerged(change.mergedInsertedIDs, change.mergedInsertedSnapshots, updated: false)
        decideMerged(change.mergedUpdatedIDs, change.mergedUpdatedSnapshots, updated: true)
        if !queried.isEmpty {
            mergeQueries += 1
            var query = (try? context.storeQuery(for: fetchRequest)) ?? StoreQuery(entity: entity)
            query.limit = 0
            query.offset = 0
            query.sortDescriptors = []
            query.restrictedTo = queried
            let found = (try? context.coordinator.store.keyedIDs(for: query, keyPaths: fetchRequest.sortDescriptors.map(\.keyPath))) ?? []
            var matched = Set<ObjectID>()
            for row in found {
                upserts.append(Upsert(entry: .init(id: row.id, keys: row.keys)))
                matched.insert(row.id)
            }
            for id in queried where !matched.contains(id) { leaving.append(id) }
        }
        apply(upserts: upserts, leaving: leaving, untouched: untouched)
    }

    /// Starts loading the values of `snapshots[n]` (a hint; nothing waits, nothing is
    /// retained): the array's storage is read through the snapshot's bits, so that asking
    /// does not itself write to the line it asks for.
    @inline(__always)
    private func prefetchValues(of snapshots: [Snapshot], _ n: Int) {
        snapshots.withUnsafeBufferPointer { buffer in
            guard let offset = MemoryLayout<Snapshot>.offset(of: \Snapshot.values) else { return }
            let storage = UnsafeRawPointer(buffer.baseAddress! + n).load(fromByteOffset: offset, as: UnsafeRawPointer.self)
            quarry_prefetch_write(storage)
            quarry_prefetch(storage + 64)
        }
    }

    /// Moves the changed entries and tells the delegate, in Core Data's order and index-path semantics.
    func apply(upserts: [Upsert], leaving: [ObjectID], untouched: [ObjectID]) {
        // Where everything that changed was: objects whose sort keys are unchanged stay put
        // (updated in place); the others are dropped from their old place and added anew.
        var updates: [(id: ObjectID, at: Int)] = []
        // A drop is of a deleted or leaving object (`deleted`), or of an object re-added
        // elsewhere (`addition`: its index in `additions`; `readded` when under the same ID),
        // or of neither.
        var drops: [(location: SortedResults.Location, index: Int, deleted: ObjectID?, addition: Int, readded: Bool)] = []
        var additions: [SortedResults.Entry] = []
        var additionOld: [Int] = []               // old global index, -1 when new
        var additionKept: [Int] = []              // kept results before the old place
        let found = results.locate(upserts.map(\.entry))
        for (u, upsert) in upserts.enumerated() {
            let id = upsert.entry.id
            let old = upsert.renamedFrom ?? found[u]?.location
            let oldIndex = upsert.renamedFrom.map(results.index(of:)) ?? found[u]?.index ?? -1
            if upsert.cancelled {
                if let old = upsert.renamedFrom { drops.append((old, oldIndex, id, -1, false)) }
                continue
            }
            if old != nil, upsert.renamedFrom == nil, found[u]?.sameKeys == true {
                updates.append((id, oldIndex))
                continue
            }
            if let old { drops.append((old, oldIndex, nil, additions.count, upsert.renamedFrom == nil)) }
            additions.append(upsert.entry)
        }
        for (id, l) in zip(untouched, results.locations(of: untouched)) {
            if let l { updates.append((id, results.index(of: l))) }
        }
        for (id, l) in zip(leaving, results.locations(of: leaving)) {
            if let l { drops.append((l, results.index(of: l), id, -1, false)) }
        }
        guard !drops.isEmpty || !additions.isEmpty || !updates.isEmpty else { return }
        drops = drops.sortedByKey { $0.location.slot << 16 | $0.location.offset }
        var dropIndexes: [Int] = []              // old global indexes, increasing
        var deletes: [(id: ObjectID, at: Int)] = []
        dropIndexes.reserveCapacity(drops.count)
        var dropLocations: [SortedResults.Location] = []
        dropLocations.reserveCapacity(drops.count)
        additionOld = [Int](repeating: -1, count: additions.count)
        additionKept = [Int](repeating: 0, count: additions.count)
        var readded: [Bool] = []
        readded.reserveCapacity(drops.count)
        for d in drops {
            if dropLocations.last != d.location {
                dropLocations.append(d.location)
                dropIndexes.append(d.index)
                readded.append(d.readded)
            } else if !d.readded {
                readded[readded.count - 1] = false
            }
            let i = dropIndexes[dropIndexes.count - 1]
            if let id = d.deleted { deletes.append((id, i)) }
            if d.addition >= 0 {
                additionOld[d.addition] = i
                additionKept[d.addition] = i - (dropIndexes.count - 1)
            }
        }

        let oldStarts = sectionStarts
        let oldNames = sectionNames
        var newIndexes: [(index: Int, survivorsBefore: Int)] = []
        if !dropLocations.isEmpty || !additions.isEmpty {
            newIndexes = results.apply(dropping: dropLocations, adding: additions, readded: readded)
            rebuildSections()
        }

        var inserts: [(id: ObjectID, at: Int)] = []               // new global indexes
        var moves: [(id: ObjectID, from: Int, to: Int)] = []      // old and new global indexes
        // An object re-placed is reported as an update only if it keeps its order relative to
        // every object that stays put, so that applying the deletes and then the inserts to the
        // old state gives the new one; otherwise it moves.
        // (Kept results before the old place and before the new one: equal when it keeps its
        // place among them.)
        let sectioned = sectionNameKeyPath != nil
        let newStarts = sectionStarts
        func oldPath(_ i: Int) -> RowPath { Self.path(ofIndex: i, starts: oldStarts) }
        func newPath(_ i: Int) -> RowPath { Self.path(ofIndex: i, starts: newStarts) }
        var candidates: [(id: ObjectID, old: Int, new: Int)] = []
        for (a, entry) in additions.enumerated() {
            let n = newIndexes[a].index, o = additionOld[a]
            guard o >= 0 else { inserts.append((entry.id, n)); continue }
            if additionKept[a] == newIndexes[a].survivorsBefore
                && (!sectioned || oldNames[oldPath(o).section] == sectionNames[newPath(n).section]) {
                candidates.append((entry.id, o, n))
            } else {
                moves.append((entry.id, o, n))
            }
        }
        // Among the candidates, keep the longest run whose new order follows the old order.
        candidates = candidates.sortedByKey(\.old)
        let keep = Self.longestIncreasing(candidates.map(\.new))
        for (k, c) in candidates.enumerated() {
            if keep[k] {
                updates.append((c.id, c.old))
            } else {
                moves.append((c.id, c.old, c.new))
            }
        }
        // A move may not go to the same index path: report it as a delete and an insert.
        var deletePaths = deletes
        moves.removeAll { move in
            guard oldPath(move.from) == newPath(move.to) else { return false }
            deletePaths.append((move.id, move.from))
            inserts.append((move.id, move.to))
            return true
        }

        let oldSet = Set(oldNames), newSet = Set(sectionNames)
        let deletedSections = oldNames.indices.filter { !newSet.contains(oldNames[$0]) }
        let insertedSections = sectionNames.indices.filter { !oldSet.contains(sectionNames[$0]) }

        guard let delegate else { return }
        if let snapshotDelegate = delegate as? FetchedResultsSnapshotDelegate {
            var snap = snapshot
            snap.reloaded = Set(updates.map(\.id))
            snapshotDelegate.controller(self, didChangeContentWith: snap)
            return
        }
        delegate.controllerWillChangeContent(self)
        for s in deletedSections.reversed() {
            delegate.controller(self, didChangeSection: SectionInfo(name: oldNames[s], indexTitle: SectionInfo.indexTitle(for: oldNames[s]), numberOfObjects: 0),
                                atSectionIndex: s, for: .delete)
        }
        if !insertedSections.isEmpty {
            let current = sections
            for s in insertedSections { delegate.controller(self, didChangeSection: current[s], atSectionIndex: s, for: .insert) }
        }
        // Index paths sort as global indexes do.
        for (id, at) in deletePaths.sortedByKey(\.at).reversed() {
            delegate.controller(self, didChangeObject: id, at: oldPath(at), for: .delete, newIndexPath: nil)
        }
        for (id, at) in inserts.sortedByKey(\.at) {
            delegate.controller(self, didChangeObject: id, at: nil, for: .insert, newIndexPath: newPath(at))
        }
        for (id, from, to) in moves.sortedByKey(\.to) {
            delegate.controller(self, didChangeObject: id, at: oldPath(from), for: .move, newIndexPath: newPath(to))
        }
        for (id, at) in updates.sortedByKey(\.at) {
            delegate.controller(self, didChangeObject: id, at: oldPath(at), for: .update, newIndexPath: nil)
        }
        delegate.controllerDidChangeContent(self)
    }

    /// Which elements of `xs` form one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasing(_ xs: [Int]) -> [Bool] {
        var tails: [Int] = []          // index into xs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: xs.count)
        for (i, x) in xs.enumerated() {
            var low = 0, high = tails.count
            while low < high { let mid = (low + high) / 2; if xs[tails[mid]] < x { low = mid + 1 } else { high = mid } }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result = [Bool](repeating: false, count: xs.count)
        var k = tails.last ?? -1
        while k >= 0 { result[k] = true; k = previous[k] }
        return result
    }
}
