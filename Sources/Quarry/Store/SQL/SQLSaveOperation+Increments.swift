extension SQLSaveOperation {
    /// Applies `increment` (see ``DerivedIncrement``): the row's derived columns grow by their
    /// differences in SQL, and the row as now stored (the context's base with the differences
    /// added when the row was still at the base's version, else read back) is recorded as
    /// updated. A row that is gone is skipped.
    func apply(_ increment: DerivedIncrement, rows: some SQLSaveRows) throws {
        let e = Int(increment.id.entityIndex)
        currentEntity = e
        assert(!increment.id.isTemporary && !increment.differences.isEmpty, "an increment of a stored object, with differences")
        assert(result.written[increment.id] == nil, "an incremented object is not otherwise written by its save")
        let columns = increment.differences.map { difference in
            var mask = PropertyMask()
            mask.insert(difference.attribute)
            return slots.changed(mask, entity: e)
        }
        guard columns.allSatisfy({ $0.count == 1 }) else {
            throw QuarryError.invalidValue("\(model.entities[e].name): a derived attribute kept by differences has no single column")
        }
        guard let version = try rows.increment(increment, slots: columns.map { $0[0] }) else { return }
        let stored: Snapshot
        if let base = increment.base, version == base.version + 1, let added = increment.appliedToBase(version: version) {
            // Nobody wrote the row since the context loaded it: its state is known.
            stored = self.stored(added, version: version, entity: e)
        } else {
            guard let read = try rows.snapshot(for: increment.id) else { return }
            stored = read
        }
        result.written[increment.id] = stored
        result.changes.recordUpdate(increment.id, changed: increment.changed, of: model.entities[e], stored: stored, memo: &keysMemo)
        result.incremented.append(increment.id)
    }
}
