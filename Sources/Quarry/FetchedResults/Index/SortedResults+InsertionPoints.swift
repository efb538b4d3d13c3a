extension SortedResults {
    /// Where each of `entries` goes among the results: before row `offset` of chunk `chunk`
    /// (`offset` may be the chunk's count: at its end). Found together: the chunks by their
    /// fences for all entries first, then (pipelined) the chunks' records and first lines,
    /// then the searches in them, so that the memory reads for different entries overlap.
    func insertionPoints(for entries: [Entry]) -> [Location] {
        guard count > 0 else { return entries.map { _ in Location(chunk: 0, offset: 0) } }
        // The first chunk whose first result does not precede each entry; the entry goes in
        // the chunk before it.
        let fences = self.fences
        var chunkOf = chunksAfter(entries) ?? entries.map { chunkAfter($0, fences: fences) }
        chunkRecords.withUnsafeBufferPointer { records in
            PrefetchPipeline(leads: [8, 0]).run(count: chunkOf.count, stage: { stage, i in
                if stage == 0 {
                    chunkOf[i] -= 1
                    prefetchRecord(chunkOf[i])
                } else if chunkOf[i] >= 0 {
                    let record = records[chunkOf[i]]
                    if sortKeys.isEmpty { record.block.prefetchOrder(rows: Int(record.count)) } else { record.block.prefetchSearch(rows: Int(record.count)) }
                }
            }, body: { _ in })
        }
        var result: [Location] = []
        result.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            let c = chunkOf[i]
            result.append(c < 0 ? Location(chunk: 0, offset: 0) : Location(chunk: c, offset: row(of: entry, inChunk: c)))
        }
        return result
    }

    /// Where `entry` goes in chunk `c` (whose first row sorts before the entry).
    @inline(__always)
    private func row(of entry: Entry, inChunk c: Int) -> Int {
        let block = chunkRecords[c].block
        var low = 1, high = block.count
        // An integer first key: search the words, then the equal keys by the rest.
        if !sortKeys.isEmpty, case .integer(let y) = entry.keys[0],
           let equal = block.equalRange(0, of: y, in: low..<high, ascending: sortKeys[0].ascending) {
            low = equal.lowerBound
            high = equal.upperBound
            if sortKeys.count == 1 {
                while low < high {
                    let mid = (low + high) / 2
                    if block.id(row: mid) < entry.id { low = mid + 1 } else { high = mid }
                }
                return low
            }
        }
        // A string first key in byte order: the block's words decide, the chunk object (long
        // strings, the other keys, the ID) is read only on equal words.
        if let first = sortKeys.first, first.comparison == .binary, block.mode(0) == .string, case .string(let y) = entry.keys[0] {
            let target = StringWord.make(y)
            while low < high {
                let mid = (low + high) / 2
                let slot = block.slot(ofRow: mid)
                let before: Bool
                if block.isNull(0, slot) {
                    before = first.ascending
                } else {
                    let x = UInt64(bitPattern: block.word(0, slot))
                    before = x != target ? (first.ascending ? x < target : x > target) : precedes(chunks[c], mid, entry)
                }
                if before { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let chunk = chunks[c]
        // A boxed first key (mixed kinds): its column read once for the whole search, the
        // other keys and the ID only on a tie.
        if let first = sortKeys.first, let column = chunk.boxedColumn(0) {
            let y = entry.keys[0]
            while low < high {
                let mid = (low + high) / 2
                let order = column.compare(block.slot(ofRow: mid).index, y, key: first)
                let before = order != 0 ? (first.ascending ? order < 0 : order > 0) : precedes(chunk, mid, entry)
                if before { low = mid + 1 } else { high = mid }
            }
            return low
        }
        while low < high {
            let mid = (low + high) / 2
            if precedes(chunk, mid, entry) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// ``chunkAfter(_:fences:)`` for each of `entries`, when the fences are all integers (`nil`
    /// otherwise): the entries with an integer first key in the key's order, each one's fences
    /// found by galloping on from the previous entry's, so that a batch reads the fences once,
    /// in order, instead of one binary search (a chain of scattered reads) per entry; any
    /// other entry by ``chunkAfter(_:fences:)``.
    private func chunksAfter(_ entries: [Entry]) -> [Int]? {
        guard let first = sortKeys.first, fences.kind == .integer, !fences.hasNulls else { return nil }
        var result = [Int](repeating: 0, count: entries.count)
        var integral: [(entry: Int, key: Int64)] = []
        integral.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard case .integer(let y) = entry.keys[0] else { result[i] = chunkAfter(entry, fences: fences); continue }
            integral.append((i, y))
        }
        let order = radixOrder(integral.map { item in
            let key = UInt64(bitPattern: item.key) ^ (1 << 63)
            return first.ascending ? key : ~key
        })
        fences.ints.withUnsafeBufferPointer { fenceKeys in
            var lower = 0
            for j in order {
                let (i, y) = integral[j]
                lower = gallop(fenceKeys, from: lower, past: y, orEqual: false, ascending: first.ascending)
                var low = lower
                var high = lower == fenceKeys.count ? lower : gallop(fenceKeys, from: lower, past: y, orEqual: true, ascending: first.ascending)
                // Chunks whose first key equals the entry's: by the whole comparison.
                while low < high {
                    let mid = (low + high) / 2
                    if precedes(chunks[mid], 0, entries[i]) { low = mid + 1 } else { high = mid }
                }
                result[i] = low
            }
        }
        return result
    }

    /// The first of `keys` at or after `start` that is not before `y` (`orEqual`: not before
    /// or equal to it) in the key's direction; the keys before `start` all are.
    private func gallop(_ keys: UnsafeBufferPointer<Int64>, from start: Int, past y: Int64, orEqual: Bool, ascending: Bool) -> Int {
        func before(_ x: Int64) -> Bool {
            ascending ? (orEqual ? x <= y : x < y) : (orEqual ? x >= y : x > y)
        }
        let n = keys.count
        var low = start, high = n, step = 1
        while low < n {
            let probe = min(low + step - 1, n - 1)
            if before(keys[probe]) { low = probe + 1; step *= 2 } else { high = probe; break }
        }
        while low < high {
            let mid = (low + high) / 2
            if before(keys[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first chunk whose first result does not precede `entry` (by `fences`, the
    /// ``fences`` read once for a batch, looking at the chunk itself only when the first keys
    /// are equal). Integer fences and keys take ``chunksAfter(_:)``.
    private func chunkAfter(_ entry: Entry, fences: KeyColumn) -> Int {
        var low = 0, high = chunks.count
        let first = sortKeys.first, value = entry.keys.first ?? .null
        while low < high {
            let mid = (low + high) / 2
            var before: Bool
            if let first, case let c = fences.compare(mid, value, key: first), c != 0 {
                before = first.ascending ? c < 0 : c > 0
            } else {
                before = precedes(chunks[mid], 0, entry)
            }
            if before { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
