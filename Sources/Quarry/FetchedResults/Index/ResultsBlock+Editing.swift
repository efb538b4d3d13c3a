extension ResultsBlock {
    /// Removes row `row`: frees its slot and shifts the order after it.
    func remove(row: Int) {
        setOccupied(removeRow(row), false)
    }

    /// Stores `entry` in a free slot and inserts it before row `row`, when the block has room,
    /// its layout fits the ID and every key fits its block column; returns the slot. `nil` (no
    /// row changed) otherwise: the ``ResultsChunk`` then grows the block or boxes the column.
    @inline(__always)
    func insert(_ entry: SortedResults.Entry, at row: Int) -> BlockSlot? {
        if count == 0 && !header.pointee.entitiesPerSlot { header.pointee.sharedEntity = entry.id.entityIndex }
        guard count < capacity, entry.keys.count <= keyColumnCount, fits(entry.id) else { return nil }
        let slot = freeSlot()
        for k in entry.keys.indices {
            guard store(k, entry.keys[k], in: slot) else { return nil }
        }
        link(entry.id, slot: slot, at: row)
        return slot
    }

    /// Makes `slot` (free, its keys stored) hold `id` as row `row`.
    @inline(__always)
    func link(_ id: ObjectID, slot: BlockSlot, at row: Int) {
        setID(id, in: slot)
        insertRow(row, slot: slot)
        setOccupied(slot, true)
    }
}
