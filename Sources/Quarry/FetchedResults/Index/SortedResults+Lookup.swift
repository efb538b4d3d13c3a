extension SortedResults {
    /// The location of `id`, or `nil` when it is not among the results.
    func location(of id: ObjectID) -> Location? { locations(of: [id])[0] }

    /// For each of `entries`: where its ID is among the results (`nil` when it is not), its
    /// global index, and whether the keys stored there equal the entry's (an update that
    /// leaves it in place). Looked up together, like ``locations(of:)``; the keys are compared
    /// as each location is found, on the thread whose pipeline brought that row's lines in
    /// (a large batch runs in two halves: compared afterwards on the calling thread, the other
    /// half's rows would be loaded again, from the other core).
    func locate(_ entries: [Entry]) -> [(location: Location, sameKeys: Bool, index: Int)?] {
        // (See ``locations(of:)``: no empty array from `unsafeUninitializedCapacity`.)
        guard !entries.isEmpty else { return [] }
        let ids = entries.map(\.id)
        return [(location: Location, sameKeys: Bool, index: Int)?](unsafeUninitializedCapacity: entries.count) { result, initialized in
            ids.withUnsafeBufferPointer { ids in
                TwoHalves.run(count: ids.count) { range in
                    let out = result.baseAddress! + range.lowerBound
                    findLocations(of: UnsafeBufferPointer(rebasing: ids[range])) { i, location, records in
                        guard let location else { return (out + i).initialize(to: nil) }
                        let record = records[location.chunk]
                        let same = holdsKeys(entries[range.lowerBound + i].keys, in: record.block, location: location)
                        (out + i).initialize(to: (location, same, record.start + location.offset))
                    }
                }
            }
            initialized = entries.count
        }
    }

    /// Whether the result at `location` (whose chunk's block is `block`) holds `keys`.
    @inline(__always)
    private func holdsKeys(_ keys: Keys, in block: ResultsBlock, location: Location) -> Bool {
        for k in keys.indices {
            // The chunk object only when the block cannot tell (a boxed column, a long string).
            let holds = block.holds(k, keys[k], row: location.offset) ?? chunks[location.chunk].holds(k, keys[k], at: location.offset)
            if !holds { return false }
        }
        return true
    }

    /// The locations of `ids` (`nil` for those not among the results), looked up together:
    /// each ID's chunk and slot from the position index, then that slot's ID (the whole chunk
    /// only when the slot holds another) and the slot's row.
    ///
    /// Five reads depend on one another (the position entry, the handle's chunk index, the
    /// chunk's record, the block's header and order, the slot's lines); a
    /// ``PrefetchPipeline`` starts each `distance` IDs before the next needs it, so that a
    /// batch from a large index costs far less than one ``location(of:)`` after another. A
    /// large batch is looked up in two halves side by side (``TwoHalves``).
    func locations(of ids: [ObjectID]) -> [Location?] {
        // No batch, no buffer: an empty array made with `unsafeUninitializedCapacity` writes
        // its count into the storage every empty array shares (a race the Thread Sanitizer
        // reports against any other thread's empty array).
        guard !ids.isEmpty else { return [] }
        return [Location?](unsafeUninitializedCapacity: ids.count) { result, initialized in
            ids.withUnsafeBufferPointer { ids in
                TwoHalves.run(count: ids.count) { range in
                    let out = result.baseAddress! + range.lowerBound
                    findLocations(of: UnsafeBufferPointer(rebasing: ids[range])) { i, location, _ in (out + i).initialize(to: location) }
                }
            }
            initialized = ids.count
        }
    }

    /// Finds the locations of `ids` (see ``locations(of:)``) and calls `found` with each one's
    /// number in `ids`, its location (`nil`: not among the results) and the chunks' records,
    /// in order, once the pipeline has loaded them all.
    @inline(__always)
    private func findLocations(of ids: UnsafeBufferPointer<ObjectID>,
                               _ found: (Int, Location?, UnsafeBufferPointer<ChunkRecord>) -> Void) {
        var handles = [(handle: Int, slot: BlockSlot)?](repeating: nil, count: ids.count)
        var recorded = [(chunk: Int, slot: BlockSlot)?](repeating: nil, count: ids.count)
        let distance = 8
        chunkRecords.withUnsafeBufferPointer { records in
            chunkIndexOfHandle.withUnsafeBufferPointer { chunkIndexes in
                PrefetchPipeline(leads: [4 * distance, 3 * distance, 2 * distance, distance, 0]).run(count: ids.count, stage: { stage, i in
                    switch stage {
                    case 0:
                        positions.prefetch(ids[i])
                    case 1:
                        guard let p = positions[ids[i]], Int(p.handle) < chunkIndexes.count else { return }
                        handles[i] = (Int(p.handle), p.slot)
                        Prefetch.read(chunkIndexes.baseAddress! + Int(p.handle))
                    case 2:
                        guard let (handle, slot) = handles[i] else { return }
                        let c = Int(chunkIndexes[handle])
                        recorded[i] = (c, slot)
                        prefetchRecord(c)
                    case 3:
                        guard let (c, _) = recorded[i], c >= 0 && c < records.count else { return }
                        records[c].block.prefetchOrder(rows: Int(records[c].count))
                    default:
                        guard let (c, slot) = recorded[i], c >= 0 && c < records.count else { return }
                        records[c].block.prefetchSlotLines(slot)
                    }
                }, body: { _ in })
            }
            for (i, id) in ids.enumerated() {
                var location: Location?
                if let (c, slot) = recorded[i], c >= 0 && c < records.count, let row = records[c].block.row(of: id, hint: slot) {
                    location = Location(chunk: c, offset: row)
                }
                found(i, location, records)
            }
        }
    }
}
