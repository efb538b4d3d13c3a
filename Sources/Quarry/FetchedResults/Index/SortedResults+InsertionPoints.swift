extension SortedResults {
    /// Where each of `entries` goes among the results: before row `offset` of chunk `chunk`
    /// (`offset` may be the chunk's count: at its end). Found together: the chunks by their
    /// fences for all entries first, then the searches in them, pipelined behind the loads of
    /// the chunks' records and first lines so that the memory reads for different entries
    /// overlap (a large batch in two halves side by side: ``TwoHalves``).
    func insertionPoints(for entries: [Entry]) -> [Location] {
        guard count > 0 else { return entries.map { _ in Location(chunk: 0, offset: 0) } }
        // (See ``locations(of:)``: no empty array from `unsafeUninitializedCapacity`.)
        guard !entries.isEmpty else { return [] }
        // The first chunk whose first result does not precede each entry; the entry goes in
        // the chunk before it.
        let fences = self.fences
        let chunkOf = (chunksAfter(entries) ?? entries.map { chunkAfter($0, fences: fences) }).map { $0 - 1 }
        // Then each entry's row in its chunk: a large batch in two halves side by side.
        return [Location](unsafeUninitializedCapacity: entries.count) { result, initialized in
            chunkOf.withUnsafeBufferPointer { chunkOf in
                TwoHalves.run(count: entries.count) { range in
                    rows(of: entries, range, chunks: chunkOf, into: UnsafeMutableBufferPointer(rebasing: result[range]))
                }
            }
            initialized = entries.count
        }
    }

    /// Where each of `entries[range]` goes in its chunk, `chunkOf[i]` for entry `i` (`-1`:
    /// before the first result), written into `result` (uninitialized, `range.count` long).
    /// The chunks' records, then their blocks' headers and orders, then the first words the
    /// search reads are loaded ahead of each search (a ``PrefetchPipeline``).
    private func rows(of entries: [Entry], _ range: Range<Int>, chunks chunkOf: UnsafeBufferPointer<Int>,
                      into result: UnsafeMutableBufferPointer<Location>) {
        chunkRecords.withUnsafeBufferPointer { records in
            PrefetchPipeline(leads: [24, 16, 8]).run(count: range.count, stage: { stage, n in
                let c = chunkOf[range.lowerBound + n]
                guard c >= 0 else { return }
                if stage == 0 {
                    prefetchRecord(c)
                } else if stage == 1 {
                    records[c].block.prefetchOrder(rows: Int(records[c].count))
                } else if !sortKeys.isEmpty {
                    // Found from the header, which the previous stage brought in.
                    records[c].block.prefetchSearchWords(rows: Int(records[c].count))
                }
            }, body: { n in
                let i = range.lowerBound + n, c = chunkOf[i]
                (result.baseAddress! + n).initialize(to: c < 0 ? Location(chunk: 0, offset: 0) : Location(chunk: c, offset: row(of: entries[i], inChunk: c)))
            })
        }
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

    /// ``chunkAfter(_:fences:)`` for each of `entries`, when the fences' first keys map onto
    /// ordered words (`nil` otherwise): integers, or strings compared by their bytes (a
    /// ``StringWord``), with no nil. The entries whose first key has a word are taken in the
    /// words' order, each one's fences found by galloping on from the previous entry's, so
    /// that a batch reads the fences once, in order, instead of one binary search (a chain of
    /// scattered reads) per entry; fences whose word equals the entry's (equal integers,
    /// strings sharing their first bytes) are told apart by the whole comparison. Any other
    /// entry takes ``chunkAfter(_:fences:)``.
    private func chunksAfter(_ entries: [Entry]) -> [Int]? {
        guard let first = sortKeys.first, !fences.hasNulls else { return nil }
        let fences = self.fences
        switch fences.kind {
        case .integer:
            return fences.ints.withUnsafeBufferPointer { ints in
                chunksAfter(entries, fenceCount: ints.count, ascending: first.ascending,
                            fenceWord: { FenceWord.integer(ints[$0]) },
                            entryWord: { if case .integer(let y) = $0 { FenceWord.integer(y) } else { nil } })
            }
        case .string where first.comparison == .binary:
            return chunksAfter(entries, fenceCount: fences.count, ascending: first.ascending,
                               fenceWord: { fences.strings.stringWord(at: $0) },
                               entryWord: { if case .string(let y) = $0 { StringWord.make(y) } else { nil } })
        default:
            return nil
        }
    }

    /// Words that order the fences' first keys as unsigned integers.
    private enum FenceWord {
        /// An integer's word: its sign bit flipped, so that `Int64` order is `UInt64` order.
        @inline(__always)
        static func integer(_ x: Int64) -> UInt64 { UInt64(bitPattern: x) ^ (1 << 63) }
    }

    /// ``chunksAfter(_:)`` over fences whose first keys' words are `fenceWord(c)`, an entry's
    /// first key's word being `entryWord` (`nil`: it has none).
    @inline(__always)
    private func chunksAfter(_ entries: [Entry], fenceCount: Int, ascending: Bool,
                             fenceWord: (Int) -> UInt64, entryWord: (Value) -> UInt64?) -> [Int] {
        // Descending keys: complemented words order the same way.
        let flip: UInt64 = ascending ? 0 : ~0
        var result = [Int](repeating: 0, count: entries.count)
        var worded: [(entry: Int, word: UInt64)] = []
        worded.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard let word = entryWord(entry.keys[0]) else { result[i] = chunkAfter(entry, fences: fences); continue }
            worded.append((i, word ^ flip))
        }
        let key = { (c: Int) in fenceWord(c) ^ flip }
        var lower = 0
        for j in radixOrder(worded.map(\.word)) {
            let (i, y) = worded[j]
            lower = gallop(count: fenceCount, key, from: lower, past: y, orEqual: false)
            var low = lower
            var high = lower == fenceCount ? lower : gallop(count: fenceCount, key, from: lower, past: y, orEqual: true)
            // Chunks whose first key's word equals the entry's: by the whole comparison.
            while low < high {
                let mid = (low + high) / 2
                if precedes(chunks[mid], 0, entries[i]) { low = mid + 1 } else { high = mid }
            }
            result[i] = low
        }
        return result
    }

    /// The first of the `count` words `key(c)` at or after `start` that is not below `y`
    /// (`orEqual`: not below or equal to it); the words before `start` all are.
    @inline(__always)
    private func gallop(count n: Int, _ key: (Int) -> UInt64, from start: Int, past y: UInt64, orEqual: Bool) -> Int {
        func before(_ x: UInt64) -> Bool { orEqual ? x <= y : x < y }
        var low = start, high = n, step = 1
        while low < n {
            let probe = min(low + step - 1, n - 1)
            if before(key(probe)) { low = probe + 1; step *= 2 } else { high = probe; break }
        }
        while low < high {
            let mid = (low + high) / 2
            if before(key(mid)) { low = mid + 1 } else { high = mid }
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
