extension AggregateResultsController {
    /// The changes of one event to the shown groups, in the delegate's order.
    struct GroupChanges {
        /// Old indexes, descending, with the group as it was.
        var deletes: [(index: Int, group: AggregateGroup)] = []
        /// New indexes, ascending.
        var inserts: [(index: Int, group: AggregateGroup)] = []
        /// Old and new indexes, by new index (survivors are visited in their new order).
        var moves: [(old: Int, new: Int, group: AggregateGroup)] = []
        /// Old indexes, ascending.
        var updates: [(index: Int, group: AggregateGroup)] = []

        var count: Int { deletes.count + inserts.count + moves.count + updates.count }

        /// The changes taking `old` to `new` (each a list of distinct identities): those
        /// missing are deleted, the new ones inserted; of those in both, the longest run
        /// keeping its relative order stays (updated when `changed`), the rest move. A move
        /// to the same index is a delete and an insert.
        init<ID: Hashable>(old: [ID], new: [ID], changed: (ID) -> Bool,
                           oldGroup: (Int) -> AggregateGroup, newGroup: (Int) -> AggregateGroup) {
            var oldIndex: [ID: Int] = [:]
            oldIndex.reserveCapacity(old.count)
            for (i, id) in old.enumerated() { oldIndex[id] = i }
            var survivors: [(old: Int, new: Int, id: ID)] = []
            var kept = Set<Int>()
            for (j, id) in new.enumerated() {
                if let i = oldIndex[id] {
                    survivors.append((i, j, id))
                    kept.insert(i)
                } else {
                    inserts.append((j, newGroup(j)))
                }
            }
            for i in old.indices.reversed() where !kept.contains(i) { deletes.append((i, oldGroup(i))) }
            let stays = ResultsChangeSet.longestIncreasing(survivors.map(\.old))
            for (k, s) in survivors.enumerated() {
                if !stays[k] {
                    if s.old == s.new {
                        deletes.append((s.old, oldGroup(s.old)))
                        inserts.append((s.new, newGroup(s.new)))
                    } else {
                        moves.append((s.old, s.new, newGroup(s.new)))
                    }
                } else if changed(s.id) {
                    updates.append((s.old, newGroup(s.new)))
                }
            }
            deletes.sort { $0.index > $1.index }
            inserts.sort { $0.index < $1.index }
            updates.sort { $0.index < $1.index }
        }
    }

    /// Re-places the `touched` groups (their aggregates already changed in ``table``) in the
    /// order, then tells the delegate; returns how many groups changed.
    func applyAndReport(touched: Set<Int32>) -> Int {
        guard !touched.isEmpty else { return 0 }
        let previousOrder = order
        // Only touched groups change their results: their old ones are kept (the others' stand).
        var previous: [Int32: [String: Value]] = [:]
        var placed: [Int32] = []
        for g in touched {
            previous[g] = results.removeValue(forKey: g)
            guard table.isPresent(g) else { continue }
            do {
                let row = try table.result(of: g)
                if let having = fetch.having, !having.evaluate(row) { continue }
                results[g] = row
                placed.append(g)
            } catch {
                report(FetchedResultsError.mergeQueryFailed(entity: entity.name, objects: 0, reason: "\(error)"))
            }
        }
        let (table, fetch, results) = (self.table, self.fetch, self.results)
        func before(_ a: Int32, _ b: Int32) -> Bool { Self.precedes(a, b, results: results, table: table, fetch: fetch) }
        placed.sort(by: before)
        // The untouched groups keep their order; the touched ones are merged in.
        var merged: [Int32] = []
        merged.reserveCapacity(order.count + placed.count)
        var p = 0
        for g in order where !touched.contains(g) {
            while p < placed.count, before(placed[p], g) { merged.append(placed[p]); p += 1 }
            merged.append(g)
        }
        merged.append(contentsOf: placed[p...])
        order = merged
        let changes = GroupChanges(
            old: previousOrder, new: order,
            changed: { touched.contains($0) && previous[$0] != results[$0] },
            oldGroup: { i in
                let g = previousOrder[i]
                return AggregateGroup(key: table.groupKeys[Int(g)], values: (touched.contains(g) ? previous[g] : results[g]) ?? [:])
            },
            newGroup: { self.group(at: $0) })
        tell(changes)
        return changes.count
    }

    /// Tells the delegate how the shown groups went from `before` (key and result, in the old
    /// order) to the current ones, matching groups by key; returns how many changed.
    func reportDifference(before: [(key: [Value], values: [String: Value])]) -> Int {
        let oldValues = Dictionary(before.map { ($0.key, $0.values) }, uniquingKeysWith: { a, _ in a })
        let newKeys = order.map { table.groupKeys[Int($0)] }
        let newValues = Dictionary(zip(newKeys, order.map { results[$0] ?? [:] }), uniquingKeysWith: { a, _ in a })
        let changes = GroupChanges(
            old: before.map(\.key), new: newKeys,
            changed: { oldValues[$0] != newValues[$0] },
            oldGroup: { AggregateGroup(key: before[$0].key, values: before[$0].values) },
            newGroup: { self.group(at: $0) })
        tell(changes)
        return changes.count
    }

    /// Replays `changes` to the delegate, between will- and did-change, when there are any.
    private func tell(_ changes: GroupChanges) {
        guard changes.count > 0, let delegate else { return }
        delegate.controllerWillChangeContent(self)
        for d in changes.deletes { delegate.controller(self, didChange: d.group, at: d.index, for: .delete, newIndex: nil) }
        for i in changes.inserts { delegate.controller(self, didChange: i.group, at: nil, for: .insert, newIndex: i.index) }
        for m in changes.moves {
            delegate.controller(self, didChange: m.group, at: m.old, for: .move, newIndex: m.new)
        }
        for u in changes.updates { delegate.controller(self, didChange: u.group, at: u.index, for: .update, newIndex: nil) }
        delegate.controllerDidChangeContent(self)
    }
}
