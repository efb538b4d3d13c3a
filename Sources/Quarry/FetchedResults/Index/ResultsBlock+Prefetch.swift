extension ResultsBlock {
    /// Starts loading the header and the order of the first `rows` rows.
    @inline(__always)
    func prefetchOrder(rows: Int) {
        Prefetch.lines(UnsafeRawPointer(raw), bytes: Self.headerBytes + rows)
    }

    /// Starts loading the words a binary search over `rows` rows of the first key reads in
    /// its first three steps (rows at the eighths), as they lie while slots follow the order:
    /// the search's first dependent loads overlap instead of following one another. For a
    /// pipeline stage run once ``prefetchOrder(rows:)`` has brought the header in (which
    /// says where the words are).
    @inline(__always)
    func prefetchSearchWords(rows: Int) {
        guard keyColumnCount > 0, mode(0) != .boxed else { return }
        let words = words(0)
        for eighth in 1..<8 { Prefetch.read(words + rows * eighth / 8) }
    }

    /// Starts loading what finding the row in `slot` reads: the header, the order of `rows`
    /// rows, and the slot's ID and first word.
    @inline(__always)
    func prefetchSlot(_ slot: BlockSlot, rows: Int) {
        prefetchOrder(rows: rows)
        prefetchSlotLines(slot)
    }

    /// The part of ``prefetchSlot(_:rows:)`` that reads the header (to find the slot's lines):
    /// for a pipeline stage run once ``prefetchOrder(rows:)`` has brought the header in.
    @inline(__always)
    func prefetchSlotLines(_ slot: BlockSlot) {
        let shape = shape
        Prefetch.read(raw + shape.primaryKeysOffset + slot.index * Int(shape.primaryKeyWidth.rawValue))
        if shape.entitiesPerSlot { Prefetch.read(raw + shape.entitiesOffset + slot.index * 4) }
        if shape.keyColumns > 0 { Prefetch.read(raw + shape.wordsOffset + slot.index * 8) }
    }

    /// Starts loading `slot`'s ID and block-column words, for writing.
    @inline(__always)
    func prefetchSlotForWriting(_ slot: BlockSlot) {
        let shape = shape
        Prefetch.write(raw + shape.primaryKeysOffset + slot.index * Int(shape.primaryKeyWidth.rawValue))
        if shape.entitiesPerSlot { Prefetch.write(raw + shape.entitiesOffset + slot.index * 4) }
        for k in 0..<shape.keyColumns where mode(k) != .boxed { Prefetch.write(words(k) + slot.index) }
    }
}
