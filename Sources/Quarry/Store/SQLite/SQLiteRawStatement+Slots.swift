extension SQLiteRawStatement {
    /// Binds the slots of `snapshot` from parameter `start` on; returns the next free parameter.
    @inline(__always)
    func bind(_ slots: [RowSlots.Slot], of snapshot: Snapshot, from start: Int32) -> Int32 {
        var index = start
        for slot in slots {
            switch slot {
            case .attribute(let i):
                bind(snapshot.values[i], at: index)
            case .transformed(let i, let transformer):
                bindTransformed(snapshot.values[i], transformer: transformer, at: index)
            case .toOneKey(let r):
                if let id = snapshot.toOne[r] { bind(id.primaryKey, at: index) } else { bindNull(at: index) }
            case .toOneEntity(let r):
                if let id = snapshot.toOne[r] { bind(Int64(id.entityIndex), at: index) } else { bindNull(at: index) }
            }
            index += 1
        }
        return index
    }
}
