extension SortedResults {
    /// An addition with its place in its chunk: before old row `row`.
    struct PlacedAddition {
        var row: Int
        var entry: Entry

        /// Whether the entry's first key is a string longer than a block word: storing it goes
        /// through the chunk object, which keeps the text (``ResultsChunk``).
        var storesLongString: Bool {
            if case .string(let first)? = entry.keys.first { return first.utf8.count > StringWord.inlineCapacity }
            return false
        }
    }

    /// What one chunk loses and gains in a batch: ranges of the batch's drops and of its
    /// placed additions (both in order).
    struct ChunkEdit {
        var chunk: Int
        var drops: Range<Int>
        var additions: Range<Int>
    }

    /// Where a rebuilt chunk's row comes from.
    enum RowSource {
        /// Row `row` of the old chunk.
        case kept(Int)
        /// Addition number `addition` of the chunk's edit.
        case added(Int)
    }

    /// Removes the results at global indexes `drop` and merges `additions` in; returns where
    /// each addition ended up (the form of `apply` that takes locations, by index).
    @discardableResult
    func apply(dropping drop: Set<Int>, adding additions: [Entry]) -> [(id: ObjectID, index: Int)] {
        let locations = drop.sorted().map { i in let (c, o) = locate(i); return Location(chunk: c, offset: o) }
        let placed = apply(dropping: locations, adding: additions)
        return zip(additions, placed).map { ($0.id, $1.index) }
    }

    /// Removes the results at `drop` (increasing, distinct) and merges `additions` in. Each
    /// addition finds its place among the old results by binary search (the dropped ones are
    /// still in order: their stored keys are the old ones), additions are ordered by that
    /// place; then only the chunks that lose or gain results are edited (in place for a few
    /// changes, rebuilt and split past ``maxChunk`` for many), and only the results that land
    /// in another chunk are re-recorded. A batch of k changes costs O(k log n) comparisons
    /// and O(k · chunk) moves. Returns, for each addition in the order of `additions`, its new
    /// global index and how many of the results that were kept (not dropped) precede it.
    /// `readded[d]`, when given, says that the result at `drop[d]` is among `additions` under
    /// the same ID (so its entry in the position index is rewritten, not removed).
    @discardableResult
    func apply(dropping drop: [Location], adding additions: [Entry], readded: [Bool]? = nil) -> [(index: Int, survivorsBefore: Int)] {
        precondition(readded == nil || readded!.count == drop.count)
        forgetPositions(of: drop, readded: readded)
        if chunks.isEmpty && !additions.isEmpty {
            chunks.append(ResultsChunk(handle: newHandle(), pks: [], entities: [], columns: sortKeys.map { _ in KeyColumn() }))
            rebuildChunkRecords()
        }
        let places = insertionPoints(for: additions)
        let order = orderOfAdditions(additions, places: places)
        let newIndexes = newIndexes(of: order, places: places, drop: drop)
        let placed = order.map { PlacedAddition(row: places[$0].offset, entry: additions[$0]) }
        let edits = chunkEdits(drop: drop, placed: order.map { places[$0].chunk })
        edit(edits, dropRows: drop.map(\.offset), placed: placed)
        checkInvariantsInDebugBuilds()
        return newIndexes
    }

    /// Removes the dropped results from the position index (those not re-added).
    private func forgetPositions(of drop: [Location], readded: [Bool]?) {
        chunkRecords.withUnsafeBufferPointer { records in
            for (d, location) in drop.enumerated() where readded?[d] != true {
                positions.remove(records[location.chunk].block.id(row: location.offset))
            }
        }
    }

    /// The additions' indexes ordered by their place among the old results (ties in the
    /// fetch's order).
    private func orderOfAdditions(_ additions: [Entry], places: [Location]) -> [Int] {
        var order = Array(additions.indices).sortedByKey { places[$0].chunk << 16 | places[$0].offset }
        var run = 0
        while run < order.count {
            var end = run + 1
            while end < order.count && places[order[end]] == places[order[run]] { end += 1 }
            if end - run > 1 { order[run..<end].sort { precedes(additions[$0], additions[$1]) } }
            run = end
        }
        return order
    }

    /// Where the additions end up: their place among the old results, less the drops before
    /// it, plus the additions before them.
    private func newIndexes(of order: [Int], places: [Location], drop: [Location]) -> [(index: Int, survivorsBefore: Int)] {
        var result = [(index: Int, survivorsBefore: Int)](repeating: (0, 0), count: order.count)
        var d = 0
        for (j, a) in order.enumerated() {
            let place = places[a]
            while d < drop.count && drop[d] < place { d += 1 }
            let survivors = index(of: place) - d
            result[a] = (survivors + j, survivors)
        }
        return result
    }

    /// The batch chunk by chunk: each chunk's drops (`drop`, in order) and additions (whose
    /// chunks, in order, are `placed`).
    private func chunkEdits(drop: [Location], placed: [Int]) -> [ChunkEdit] {
        var edits: [ChunkEdit] = []
        // At most one edit a drop or addition: reserved once, not grown by copying as it fills.
        edits.reserveCapacity(drop.count + placed.count)
        var d = 0, a = 0
        while d < drop.count || a < placed.count {
            let c = min(d < drop.count ? drop[d].chunk : Int.max, a < placed.count ? placed[a] : Int.max)
            let dropStart = d, addStart = a
            while d < drop.count && drop[d].chunk == c { d += 1 }
            while a < placed.count && placed[a] == c { a += 1 }
            edits.append(ChunkEdit(chunk: c, drops: dropStart..<d, additions: addStart..<a))
        }
        return edits
    }

    /// Applies `edits` and puts the chunks that split or emptied in place.
    ///
    /// The edits read memory scattered over the whole index: each chunk's record, then its
    /// block header and order and its additions' position entries, then (once the header is
    /// in) the slot its first addition takes. A ``PrefetchPipeline`` starts those loads a few
    /// edits ahead of the edit that needs them.
    private func edit(_ edits: [ChunkEdit], dropRows: [Int], placed: [PlacedAddition]) {
        let ahead = 16
        var replacements: [(chunk: Int, pieces: [ResultsChunk])] = []
        // The edits' rows and additions are read through buffers taken once, not sliced
        // (retained and released) per edit.
        dropRows.withUnsafeBufferPointer { dropRows in
            placed.withUnsafeBufferPointer { placed in
                PrefetchPipeline(leads: [2 * ahead, ahead, ahead / 2]).run(count: edits.count, stage: { stage, e in
                    switch stage {
                    case 0: prefetchRecord(edits[e].chunk)
                    case 1: prefetchBlock(of: edits[e], placed: placed)
                    default: prefetchFreeSlot(of: edits[e], dropRows: dropRows, placed: placed)
                    }
                }, body: { e in
                    let edit = edits[e]
                    let drops = UnsafeBufferPointer(rebasing: dropRows[edit.drops])
                    let adds = UnsafeBufferPointer(rebasing: placed[edit.additions])
                    if let pieces = self.edit(chunk: edit.chunk, drops: drops, adds: adds) { replacements.append((edit.chunk, pieces)) }
                })
            }
        }
        splice(replacements)
    }

    private func prefetchBlock(of edit: ChunkEdit, placed: UnsafeBufferPointer<PlacedAddition>) {
        guard edit.chunk < chunkRecords.count else { return }
        let record = chunkRecords[edit.chunk]
        record.block.prefetchOrder(rows: Int(record.count))
        for a in edit.additions { positions.prefetch(placed[a].entry.id) }
        // A long string goes through the chunk object (its text is kept there): load the
        // object now, its text buffer at the next stage.
        if edit.additions.contains(where: { placed[$0].storesLongString }) {
            Prefetch.lines(chunkObjectAddress(edit.chunk), bytes: 128)
        }
    }

    private func prefetchFreeSlot(of edit: ChunkEdit, dropRows: UnsafeBufferPointer<Int>, placed: UnsafeBufferPointer<PlacedAddition>) {
        guard !edit.additions.isEmpty, edit.chunk < chunkRecords.count else { return }
        if edit.additions.contains(where: { placed[$0].storesLongString }) {
            Unmanaged<ResultsChunk>.fromOpaque(chunkObjectAddress(edit.chunk))._withUnsafeGuaranteedRef { $0.prefetchOverflow() }
        }
        let block = chunkRecords[edit.chunk].block
        guard block.count < block.capacity || !edit.drops.isEmpty else { return }
        var slot = block.count < block.capacity ? block.freeSlot() : nil
        for d in edit.drops {
            let dropped = block.slot(ofRow: dropRows[d])
            if slot == nil || dropped < slot! { slot = dropped }
        }
        if let slot { block.prefetchSlotForWriting(slot) }
    }

    /// Applies one chunk's drops (rows, increasing) and additions (before old rows, in
    /// order): in place for a few, else rebuilt; returns the pieces replacing the chunk when
    /// it must be split or removed.
    private func edit(chunk c: Int, drops: UnsafeBufferPointer<Int>, adds: UnsafeBufferPointer<PlacedAddition>) -> [ResultsChunk]? {
        let final = Int(chunkRecords[c].count) - drops.count + adds.count
        if final > 0 && final <= Self.maxChunk && drops.count + adds.count <= 8 {
            editInPlace(chunk: c, drops: drops, adds: adds)
            return nil
        }
        return rebuild(chunk: c, drops: drops, adds: adds)
    }

    /// A few changes: edits the chunk's block in place, through the chunk object only when
    /// the block must grow or a column is boxed.
    private func editInPlace(chunk c: Int, drops: UnsafeBufferPointer<Int>, adds: UnsafeBufferPointer<PlacedAddition>) {
        let record = chunkRecords[c]
        var block = record.block
        for row in drops.reversed() { block.remove(row: row) }
        var firstChanged = drops.first ?? block.count
        var d = 0
        for (n, add) in adds.enumerated() {
            while d < drops.count && drops[d] < add.row { d += 1 }
            let row = add.row - d + n
            firstChanged = min(firstChanged, row)
            let slot: BlockSlot
            if let s = block.insert(add.entry, at: row) {
                slot = s
            } else {
                let chunk = chunks[c]
                slot = chunk.insert(add.entry, at: row)
                block = chunk.block
            }
            positions.set(add.entry.id, handle: record.handle, slot: slot)
        }
        chunkRecords[c].block = block
        chunkRecords[c].count = Int32(block.count)
        if firstChanged == 0 { fences.set(fence(of: chunks[c]), at: c) }
    }

    /// Many changes: rebuilds the chunk, split into pieces if it grew too large; returns the
    /// pieces (none when it emptied) or `nil` when the rebuilt chunk took its place.
    private func rebuild(chunk c: Int, drops: UnsafeBufferPointer<Int>, adds: UnsafeBufferPointer<PlacedAddition>) -> [ResultsChunk]? {
        let chunk = chunks[c]
        let sources = rowSources(count: chunk.count, drops: drops, adds: adds)
        var pks: [Int64] = [], entities: [Int32] = []
        pks.reserveCapacity(sources.count)
        entities.reserveCapacity(sources.count)
        for source in sources {
            let id: ObjectID
            switch source {
            case .kept(let row): id = chunk.id(row)
            case .added(let a): id = adds[a].entry.id
            }
            pks.append(id.primaryKey)
            entities.append(id.entityIndex)
        }
        let columns = (0..<chunk.keyCount).map { k in chunk.column(k).rebuilt(from: sources, additions: adds.map { $0.entry.keys[k] }) }
        if sources.count <= Self.maxChunk && !sources.isEmpty {
            let rebuilt = ResultsChunk(handle: chunk.handle, pks: pks[...], entities: entities[...], columns: columns)
            chunks[c] = rebuilt
            chunkRecords[c] = ChunkRecord(rebuilt, start: chunkRecords[c].start)
            fences.set(fence(of: rebuilt), at: c)
            recordPositions(of: rebuilt)
            return nil
        }
        var pieces: [ResultsChunk] = []
        var start = 0
        let pieceCount = (sources.count + Self.chunkSize - 1) / Self.chunkSize
        for p in 0..<pieceCount {
            let end = sources.count * (p + 1) / pieceCount
            pieces.append(ResultsChunk(handle: p == 0 ? chunk.handle : newHandle(), pks: pks[start..<end], entities: entities[start..<end],
                                       columns: columns.map { $0.slice(start..<end) }))
            start = end
        }
        if pieces.isEmpty {
            chunkIndexOfHandle[Int(chunk.handle)] = Self.noChunk
            freeHandles.append(chunk.handle)
        }
        return pieces
    }

    /// The rows of a rebuilt chunk of `count` old rows, in order: the old rows but `drops`,
    /// with `adds` before the old rows they name.
    private func rowSources(count: Int, drops: UnsafeBufferPointer<Int>, adds: UnsafeBufferPointer<PlacedAddition>) -> [RowSource] {
        var sources: [RowSource] = []
        sources.reserveCapacity(count - drops.count + adds.count)
        var d = 0, a = 0
        for row in 0...count {
            while a < adds.count && adds[a].row == row { sources.append(.added(a)); a += 1 }
            guard row < count else { break }
            if d < drops.count && drops[d] == row { d += 1; continue }
            sources.append(.kept(row))
        }
        return sources
    }

    /// Puts the pieces replacing chunks in place, carrying records, handles and fences along;
    /// only the chunks from the first replaced one on change index.
    private func splice(_ replacements: [(chunk: Int, pieces: [ResultsChunk])]) {
        guard let firstChanged = replacements.first?.chunk else {
            renumber()
            return
        }
        // From the last replaced chunk back, so earlier chunks stay where they are.
        for (c, pieces) in replacements.reversed() {
            for piece in pieces { recordPositions(of: piece) }
            guard let head = pieces.first else {
                chunks.remove(at: c)
                chunkRecords.remove(at: c)
                fences.remove(at: c)
                continue
            }
            chunks[c] = head
            chunkRecords[c] = ChunkRecord(head)
            fences.set(fence(of: head), at: c)
            let rest = pieces.dropFirst()
            chunks.insert(contentsOf: rest, at: c + 1)
            chunkRecords.insert(contentsOf: rest.map { ChunkRecord($0) }, at: c + 1)
            for (n, piece) in rest.enumerated() { fences.insert(fence(of: piece), at: c + 1 + n) }
        }
        for c in firstChanged..<chunkRecords.count { chunkIndexOfHandle[Int(chunkRecords[c].handle)] = Int32(c) }
        renumber()
        // Too many small chunks after many removals: cut them again.
        if chunks.count > 2 * (count / Self.chunkSize) + 16 { rechunk() }
    }

    /// Cuts every result into fresh chunks of ``chunkSize``.
    private func rechunk() {
        let flat = flattened()
        adopt(SortedResults(sortKeys: sortKeys, pks: flat.pks, entities: flat.entities, columns: flat.columns))
    }
}
