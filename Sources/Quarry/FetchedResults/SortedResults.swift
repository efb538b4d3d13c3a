import CPrefetch

/// The controller's index: object IDs with their sort keys, in fetch order (sort keys, then
/// object ID), kept sorted by binary search.
///
/// Stored in chunks of at most ``maxChunk`` results, each one block of memory (``Block``:
/// a one-byte order per row, then primary keys, entity indexes and typed sort keys by slot;
/// strings and other values as ``KeyColumn``s beside it), so a million results cost about
/// 30 bytes each and no allocation per result, a change touches one block per chunk, and a
/// batch of k changes rewrites only the chunks it touches (O(k · chunk) work, not O(n)).
/// Blocks come from ``BlockArena`` (huge pages where the system gives them). Each object's
/// place is found in constant time through ``PositionIndex`` (primary key → chunk and slot),
/// which changes only for results that move to another chunk. What a lookup needs of a chunk
/// (its block, size, first index and handle) is one ``ChunkMeta`` record. The first sort key of every
/// chunk's first result is kept in one contiguous ``fences`` column, so the search over
/// chunks rarely touches the chunks themselves; a batch galloping through it in key order
/// reads it once.
///
/// Chunks are reference types: a `SortedResults` is not copied, only mutated in place.
struct SortedResults {
    /// One result as the comparisons see it (used for the few entries a change event touches).
    struct Entry {
        var id: ObjectID
        var keys: Keys

        /// The entry of `id` with sort keys `keys`.
        init(id: ObjectID, keys: Keys) {
            self.id = id
            self.keys = keys
        }

        /// The entry of `id` with sort keys `keys`.
        init(id: ObjectID, keys: [Value]) {
            self.init(id: id, keys: Keys(keys))
        }
    }

    /// Results per chunk when chunks are cut, and the most a chunk holds before it is split.
    static let chunkSize = 64
    static let maxChunk = 128

    let sortKeys: [SortKey]
    private(set) var chunks: [Chunk] = []
    /// `meta[c]`: chunk `c`'s block, size, first index and handle, in one record (read
    /// without touching the chunk object; see ``ChunkMeta``).
    private var meta: [ChunkMeta] = []
    /// How many results there are.
    private(set) var count = 0
    /// Row 0 of the first key column of each chunk (for the search over chunks).
    private var fences = KeyColumn()
    /// Chunk handle → its index in `chunks` (-1: unused handle).
    private var slotOfHandle: [Int32] = []
    private var freeHandles: [Int32] = []
    private var positions = PositionIndex()

    /// An index of `entries`, already in order.
    init(sortKeys: [SortKey], entries: [Entry] = []) {
        var builder = Builder(sortKeys: sortKeys)
        for entry in entries { builder.append(entry) }
        self = builder.finish()
    }

    /// An index from whole columns (a fetch or a cache file), already in order.
    init(sortKeys: [SortKey], pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        precondition(pks.count == entities.count && columns.count == sortKeys.count && columns.allSatisfy { $0.count == pks.count })
        self.sortKeys = sortKeys
        var start = 0
        while start < pks.count {
            let end = min(pks.count, start + Self.chunkSize)
            chunks.append(Chunk(handle: newHandle(), pks: pks[start..<end], entities: entities[start..<end],
                                columns: columns.map { $0.slice(start..<end) }))
            start = end
        }
        positions.reserve(maxKey: pks.max() ?? -1, count: pks.count)
        for chunk in chunks { stamp(chunk) }
        reslot()
    }

    /// An index of `chunks` (in order, handles `0..<chunks.count`) built by a ``Builder``.
    init(sortKeys: [SortKey], chunks: [Chunk], maxPrimaryKey: Int64, count: Int) {
        self.sortKeys = sortKeys
        self.chunks = chunks
        slotOfHandle = [Int32](repeating: -1, count: chunks.count)
        positions.reserve(maxKey: maxPrimaryKey, count: count)
        for chunk in chunks { stamp(chunk) }
        reslot()
    }

    /// The first key of row 0 of `chunk` (`.null` when there is no key).
    private func fence(of chunk: Chunk) -> Value {
        chunk.keyCount == 0 || chunk.count == 0 ? .null : chunk.value(0, at: 0)
    }

    private mutating func newHandle() -> Int32 {
        if let h = freeHandles.popLast() { return h }
        slotOfHandle.append(-1)
        return Int32(slotOfHandle.count - 1)
    }

    /// Recomputes the chunks' starts and ``count`` after chunks changed size.
    private mutating func renumber() {
        count = meta.withUnsafeMutableBufferPointer { meta in
            var total = 0
            for c in meta.indices {
                meta[c].start = total
                total += Int(meta[c].size)
            }
            return total
        }
    }

    /// Recomputes the chunk records, fences and handle slots from the chunks.
    private mutating func reslot() {
        meta = chunks.map { ChunkMeta($0) }
        fences = KeyColumn(chunks.map(fence(of:)))
        for (c, chunk) in chunks.enumerated() { slotOfHandle[Int(chunk.handle)] = Int32(c) }
        renumber()
    }

    /// Records the chunk of every result of `chunk`.
    private mutating func stamp(_ chunk: Chunk) {
        for o in 0..<chunk.count { positions.set(chunk.id(o), handle: chunk.handle, slot: chunk.block.slot(o)) }
    }

    /// The first broken internal invariant, described (`nil` when all hold): the mirrors of
    /// the chunks (records and fences), the position index, and the order.
    /// For tests; O(n).
    func invariantViolation() -> String? {
        guard meta.count == chunks.count, fences.count == chunks.count else { return "mirror counts differ" }
        if count != (meta.last.map { $0.start + Int($0.size) } ?? 0) { return "count" }
        var previous: Entry?
        for (c, chunk) in chunks.enumerated() {
            if chunk.count == 0 { return "chunk \(c) is empty" }
            let m = meta[c]
            if m.block.raw != chunk.block.raw || m.block.capacity != chunk.block.capacity { return "block \(c) is stale" }
            if Int(m.size) != chunk.count || m.start != (c == 0 ? 0 : meta[c - 1].start + Int(meta[c - 1].size)) { return "size of chunk \(c)" }
            if m.handle != chunk.handle || slotOfHandle[Int(chunk.handle)] != Int32(c) { return "handle of chunk \(c)" }
            if fences.value(at: c) != fence(of: chunk) { return "fence \(c): \(fences.value(at: c)) vs \(fence(of: chunk))" }
            for o in 0..<chunk.count {
                let entry = Entry(id: chunk.id(o), keys: sortKeys.indices.map { chunk.value($0, at: o) })
                if let p = positions[entry.id], p.handle == chunk.handle, p.slot == chunk.block.slot(o) {} else { return "position of \(entry.id)" }
                if let previous, !precedes(previous, entry) { return "order at chunk \(c) row \(o): \(previous.keys) \(previous.id) / \(entry.keys) \(entry.id)" }
                previous = entry
            }
        }
        return nil
    }

    /// The chunk holding global index `i` (`i < count`), and the offset in it.
    func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        var low = 0, high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if meta[mid].start <= i { low = mid } else { high = mid - 1 }
        }
        return (low, i - meta[low].start)
    }

    /// The ID at global index `i`.
    func id(at i: Int) -> ObjectID {
        let (c, o) = locate(i)
        return chunks[c].id(o)
    }

    /// The IDs at `range`, in order.
    func ids(in range: Range<Int>) -> [ObjectID] {
        guard !range.isEmpty else { return [] }
        var result: [ObjectID] = []
        result.reserveCapacity(range.count)
        var (c, o) = locate(range.lowerBound)
        while result.count < range.count {
            let chunk = chunks[c]
            let take = min(chunk.count - o, range.count - result.count)
            for i in o..<(o + take) { result.append(chunk.id(i)) }
            c += 1
            o = 0
        }
        return result
    }

    /// Every ID, in order.
    var allIDs: [ObjectID] { ids(in: 0..<count) }

    /// The index of `id`, or `nil` when it is not among the results.
    func position(of id: ObjectID) -> Int? { location(of: id).map(index(of:)) }

    /// The sort keys of the result at `index`.
    func keys(at index: Int) -> [Value] {
        let (c, o) = locate(index)
        return sortKeys.indices.map { chunks[c].value($0, at: o) }
    }

    /// Whether `a` sorts before `b` (the fetch's order; ties by object ID).
    func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (i, key) in sortKeys.enumerated() {
            let c = key.compare(a.keys[i], b.keys[i])
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return a.id < b.id
    }

    /// Whether row `o` of `chunk` sorts before `entry`.
    @inline(__always)
    private func precedes(_ chunk: Chunk, _ o: Int, _ entry: Entry) -> Bool {
        for i in sortKeys.indices {
            let key = sortKeys[i]
            let c = chunk.compare(i, o, entry.keys[i], key: key)
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return chunk.id(o) < entry.id
    }

    /// Where one result sits: chunk `slot` (its index in ``chunks``), row `offset`.
    struct Location: Comparable {
        var slot: Int
        var offset: Int

        static func < (a: Location, b: Location) -> Bool { a.slot != b.slot ? a.slot < b.slot : a.offset < b.offset }
    }

    /// The location of `id`, or `nil` when it is not among the results.
    func location(of id: ObjectID) -> Location? { locations(of: [id])[0] }

    /// For each of `entries`: where its ID is among the results (`nil` when it is not), its
    /// global index, and whether the keys stored there equal the entry's (an update that
    /// leaves it in place). Looked up together, like ``locations(of:)``; the index comes
    /// with the chunk's record read for the keys, so that finding it later costs no second
    /// read of that record.
    func locate(_ entries: [Entry]) -> [(location: Location, sameKeys: Bool, index: Int)?] {
        let found = locations(of: entries.map(\.id))
        var result: [(location: Location, sameKeys: Bool, index: Int)?] = []
        result.reserveCapacity(entries.count)
        meta.withUnsafeBufferPointer { meta in
            for (i, l) in found.enumerated() {
                guard let l else { result.append(nil); continue }
                let m = meta[l.slot], block = m.block, keys = entries[i].keys
                var same = true
                for k in keys.indices {
                    let holds = block.mode(k) != Block.boxed ? block.holds(k, keys[k], at: l.offset) : chunks[l.slot].holds(k, keys[k], at: l.offset)
                    if !holds { same = false; break }
                }
                result.append((l, same, m.start + l.offset))
            }
        }
        return result
    }

    /// The locations of `ids` (`nil` for those not among the results), looked up together:
    /// each ID's chunk and slot from the position index, then that slot's ID (the whole chunk
    /// only when the slot holds another) and the slot's row.
    ///
    /// Each step runs over the whole batch before the next (the position entries, then the
    /// slots' lines, then the reads), so the memory reads for different IDs overlap instead of
    /// each waiting on the one before: a batch from a large index costs far less than one
    /// ``location(of:)`` after another.
    func locations(of ids: [ObjectID]) -> [Location?] {
        var slots = [(chunk: Int, slot: Int)](repeating: (-1, -1), count: ids.count)
        // Three reads depend on one another (the position entry, the chunk's record, the
        // block's lines): each starts `distance` IDs before the next needs it.
        let distance = 8
        func entry(_ i: Int) {
            guard let p = positions[ids[i]] else { return }
            let c = Int(slotOfHandle[Int(p.handle)])
            slots[i] = (c, p.slot)
            prefetchRecord(c)
        }
        for i in 0..<min(2 * distance, ids.count) { positions.prefetch(ids[i]) }
        for i in 0..<min(distance, ids.count) { entry(i) }
        meta.withUnsafeBufferPointer { meta in
            for i in ids.indices {
                if i + 2 * distance < ids.count { positions.prefetch(ids[i + 2 * distance]) }
                if i + distance < ids.count { entry(i + distance) }
                let (c, s) = slots[i]
                if c >= 0 && c < meta.count { meta[c].block.prefetchSlot(s, rows: Int(meta[c].size)) }
            }
        }
        var result = [Location?](repeating: nil, count: ids.count)
        meta.withUnsafeBufferPointer { meta in
            for (i, id) in ids.enumerated() {
                let (c, s) = slots[i]
                guard c >= 0 && c < meta.count else { continue }
                if let o = meta[c].block.row(of: id, hint: s) { result[i] = Location(slot: c, offset: o) }
            }
        }
        return result
    }

    /// Starts loading chunk `c`'s record (a hint; nothing for a `c` out of range).
    @inline(__always)
    private func prefetchRecord(_ c: Int) {
        guard c >= 0 && c < meta.count else { return }
        meta.withUnsafeBufferPointer { quarry_prefetch($0.baseAddress! + c) }
    }

    /// The global index of `location`.
    func index(of location: Location) -> Int { meta[location.slot].start + location.offset }

    /// The sort keys stored at `location`.
    func keys(at location: Location) -> [Value] {
        sortKeys.indices.map { chunks[location.slot].value($0, at: location.offset) }
    }

    /// Removes the results at global indexes `drop` and merges `additions` in; returns where
    /// each addition ended up (the form of `apply` that takes locations, by index).
    @discardableResult
    mutating func apply(dropping drop: Set<Int>, adding additions: [Entry]) -> [(id: ObjectID, index: Int)] {
        let locations = drop.sorted().map { i in let (c, o) = locate(i); return Location(slot: c, offset: o) }
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
    mutating func apply(dropping drop: [Location], adding additions: [Entry], readded: [Bool]? = nil) -> [(index: Int, survivorsBefore: Int)] {
        precondition(readded == nil || readded!.count == drop.count)
        meta.withUnsafeBufferPointer { meta in
            for (d, l) in drop.enumerated() where readded?[d] != true { positions.remove(meta[l.slot].block.id(l.offset)) }
        }
        if chunks.isEmpty && !additions.isEmpty {
            chunks.append(Chunk(handle: newHandle(), pks: [], entities: [], columns: sortKeys.map { _ in KeyColumn() }))
            reslot()
        }
        // Each addition's place among the old results, in order (ties by the fetch's order).
        let places = insertionPoints(for: additions)
        var order = Array(additions.indices).sortedByKey { places[$0].slot << 16 | places[$0].offset }
        var run = 0
        while run < order.count {
            var end = run + 1
            while end < order.count && places[order[end]] == places[order[run]] { end += 1 }
            if end - run > 1 { order[run..<end].sort { precedes(additions[$0], additions[$1]) } }
            run = end
        }
        // Where the additions end up: their place among the old results, less the drops
        // before it, plus the additions before them.
        var newIndex = [(index: Int, survivorsBefore: Int)](repeating: (0, 0), count: additions.count)
        var d = 0
        for (j, a) in order.enumerated() {
            let place = places[a]
            while d < drop.count && drop[d] < place { d += 1 }
            let survivors = index(of: place) - d
            newIndex[a] = (survivors + j, survivors)
        }
        // Chunk by chunk, the drops' offsets and the additions with theirs, each in order.
        let dropOffsets = drop.map(\.offset)
        let adds = order.map { (at: places[$0].offset, entry: additions[$0]) }
        var groups: [(chunk: Int, drops: Range<Int>, adds: Range<Int>)] = []
        var di = 0, ai = 0
        while di < drop.count || ai < order.count {
            let c = min(di < drop.count ? drop[di].slot : Int.max, ai < order.count ? places[order[ai]].slot : Int.max)
            let dropStart = di, addStart = ai
            while di < drop.count && drop[di].slot == c { di += 1 }
            while ai < order.count && places[order[ai]].slot == c { ai += 1 }
            groups.append((c, dropStart..<di, addStart..<ai))
        }
        // The edits read memory scattered over the whole index: each group's chunk record,
        // then its block header and order and its additions' position entries, then (once
        // the header is in) the slot its first addition takes. Those loads start a few groups
        // ahead of the edit that needs them, each stage once the one before has arrived, so
        // that a handful are in flight at any time instead of each edit waiting on its own.
        let ahead = 16
        func prefetchMeta(_ g: Int) {
            prefetchRecord(groups[g].chunk)
        }
        func prefetchChunk(_ g: Int) {
            let c = groups[g].chunk
            guard c < meta.count else { return }
            let m = meta[c]
            m.block.prefetchOrder(rows: Int(m.size))
            for a in groups[g].adds { positions.prefetch(adds[a].entry.id) }
        }
        func prefetchFreeSlot(_ g: Int) {
            let group = groups[g]
            guard !group.adds.isEmpty, group.chunk < meta.count else { return }
            let block = meta[group.chunk].block
            guard block.count < block.capacity || !group.drops.isEmpty else { return }
            var slot = block.count < block.capacity ? block.freeSlot() : Int.max
            for d in group.drops { slot = min(slot, block.slot(dropOffsets[d])) }
            block.prefetchSlotForWriting(slot)
        }
        for g in 0..<min(2 * ahead, groups.count) { prefetchMeta(g) }
        for g in 0..<min(ahead, groups.count) { prefetchChunk(g) }
        for g in 0..<min(ahead / 2, groups.count) { prefetchFreeSlot(g) }
        var replacements: [(chunk: Int, pieces: [Chunk])] = []
        for (n, g) in groups.enumerated() {
            if n + 2 * ahead < groups.count { prefetchMeta(n + 2 * ahead) }
            if n + ahead < groups.count { prefetchChunk(n + ahead) }
            if n + ahead / 2 < groups.count { prefetchFreeSlot(n + ahead / 2) }
            let pieces = dropOffsets[g.drops].withUnsafeBufferPointer { drops in
                adds[g.adds].withUnsafeBufferPointer { adds in edit(g.chunk, drops: drops, adds: adds) }
            }
            if let pieces { replacements.append((g.chunk, pieces)) }
        }
        splice(replacements)
        return newIndex
    }

    /// Where each of `entries` goes among the results: before row `offset` of chunk `slot`
    /// (`offset` may be the chunk's count: at its end). Found together: the chunks by their
    /// fences for all entries first, then the chunks' key columns for all, then the searches
    /// in them, so that the memory reads for different entries overlap.
    func insertionPoints(for entries: [Entry]) -> [Location] {
        guard count > 0 else { return entries.map { _ in Location(slot: 0, offset: 0) } }
        // Each entry's chunk, and a start on loading that chunk's first keys for the search in it.
        var slots = chunksAfter(entries) ?? entries.map(chunkAfter)
        // The chunk's record, then (`distance` entries later) the block's first lines.
        let distance = 8
        func previousChunk(_ i: Int) {
            slots[i] -= 1
            prefetchRecord(slots[i])
        }
        for i in 0..<min(distance, slots.count) { previousChunk(i) }
        meta.withUnsafeBufferPointer { meta in
            for i in slots.indices {
                if i + distance < slots.count { previousChunk(i + distance) }
                guard slots[i] >= 0 else { continue }
                let m = meta[slots[i]]
                if sortKeys.isEmpty { m.block.prefetchOrder(rows: Int(m.size)) } else { m.block.prefetchSearch(rows: Int(m.size)) }
            }
        }
        // Then the searches in them.
        var result: [Location] = []
        result.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            let slot = slots[i]
            result.append(slot < 0 ? Location(slot: 0, offset: 0) : Location(slot: slot, offset: offset(of: entry, in: slot)))
        }
        return result
    }

    /// Where `entry` goes in chunk `slot` (whose first row sorts before the entry).
    @inline(__always)
    private func offset(of entry: Entry, in slot: Int) -> Int {
        let block = meta[slot].block
        var l = 1, h = block.count
        // An integer first key: search the words, then the equal keys by the rest.
        if !sortKeys.isEmpty, case .integer(let y) = entry.keys[0], let equal = block.equalRange(0, of: y, in: l..<h, ascending: sortKeys[0].ascending) {
            l = equal.lowerBound
            h = equal.upperBound
            if sortKeys.count == 1 {
                while l < h {
                    let mid = (l + h) / 2
                    if block.id(mid) < entry.id { l = mid + 1 } else { h = mid }
                }
                return l
            }
        }
        let chunk = chunks[slot]
        while l < h {
            let mid = (l + h) / 2
            if precedes(chunk, mid, entry) { l = mid + 1 } else { h = mid }
        }
        return l
    }

    /// ``chunkAfter(_:)`` for each of `entries`, when the fences are all integers (`nil`
    /// otherwise): the entries with an integer first key in the key's order, each one's fences
    /// found by galloping on from the previous entry's, so that a batch reads the fences once,
    /// in order, instead of one binary search (a chain of scattered reads) per entry; any
    /// other entry by ``chunkAfter(_:)``.
    private func chunksAfter(_ entries: [Entry]) -> [Int]? {
        guard let first = sortKeys.first, fences.kind == .integer, !fences.hasNulls else { return nil }
        var result = [Int](repeating: 0, count: entries.count)
        var integral: [Int] = [], ys: [Int64] = [], keys: [UInt64] = []
        integral.reserveCapacity(entries.count)
        ys.reserveCapacity(entries.count)
        keys.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard case .integer(let y) = entry.keys[0] else { result[i] = chunkAfter(entry); continue }
            integral.append(i)
            ys.append(y)
            let key = UInt64(bitPattern: y) ^ (1 << 63)
            keys.append(first.ascending ? key : ~key)
        }
        fences.ints.withUnsafeBufferPointer { xs in
            let n = xs.count
            // The first fence at or after `start` that is not before `y` (`orEqual`: not
            // before or equal), in the key's direction; the fences before `start` all are.
            func gallop(from start: Int, _ y: Int64, orEqual: Bool) -> Int {
                func before(_ x: Int64) -> Bool {
                    first.ascending ? (orEqual ? x <= y : x < y) : (orEqual ? x >= y : x > y)
                }
                var low = start, high = n, step = 1
                while low < n {
                    let probe = min(low + step - 1, n - 1)
                    if before(xs[probe]) { low = probe + 1; step *= 2 } else { high = probe; break }
                }
                while low < high {
                    let mid = (low + high) / 2
                    if before(xs[mid]) { low = mid + 1 } else { high = mid }
                }
                return low
            }
            var lower = 0
            for j in radixOrder(keys) {
                let i = integral[j], entry = entries[i], y = ys[j]
                lower = gallop(from: lower, y, orEqual: false)
                var low = lower, high = lower == n ? lower : gallop(from: lower, y, orEqual: true)
                // Chunks whose first key equals the entry's: by the whole comparison.
                while low < high {
                    let mid = (low + high) / 2
                    if precedes(chunks[mid], 0, entry) { low = mid + 1 } else { high = mid }
                }
                result[i] = low
            }
        }
        return result
    }

    /// The first chunk whose first result does not precede `entry` (by the fences, looking at
    /// the chunk itself only when the first keys are equal). Integer fences and keys take
    /// ``chunksAfter(_:)``.
    private func chunkAfter(_ entry: Entry) -> Int {
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

    /// Applies one chunk's drops (offsets, increasing) and additions (before old offsets, in
    /// order): in place for a few, else rebuilt; returns the pieces replacing the chunk when it
    /// must be split or removed.
    private mutating func edit(_ c: Int, drops: UnsafeBufferPointer<Int>, adds: UnsafeBufferPointer<(at: Int, entry: Entry)>) -> [Chunk]? {
        let m = meta[c]
        let final = Int(m.size) - drops.count + adds.count
        if final > 0 && final <= Self.maxChunk && drops.count + adds.count <= 8 {
            // A few changes: edit the chunk's block in place, through the chunk object only
            // when the block must grow or a column is boxed.
            var block = m.block
            for o in drops.reversed() { block.remove(at: o) }
            var first = drops.first ?? block.count
            var d = 0
            for (n, add) in adds.enumerated() {
                while d < drops.count && drops[d] < add.at { d += 1 }
                let at = add.at - d + n
                first = min(first, at)
                let slot: Int
                if let s = block.insert(add.entry, at: at) {
                    slot = s
                } else {
                    let chunk = chunks[c]
                    slot = chunk.insert(add.entry, at: at)
                    block = chunk.block
                }
                positions.set(add.entry.id, handle: m.handle, slot: slot)
            }
            meta[c].block = block
            meta[c].size = Int32(block.count)
            if first == 0 { fences.set(fence(of: chunks[c]), at: c) }
            return nil
        }
        let chunk = chunks[c]
        // Many changes: rebuild the chunk, splitting it if it grew too large.
        var order: [Int] = []          // >= 0: old row; < 0: addition -(n + 1)
        order.reserveCapacity(final)
        var d = 0, a = 0
        for i in 0...chunk.count {
            while a < adds.count && adds[a].at == i { order.append(-(a + 1)); a += 1 }
            guard i < chunk.count else { break }
            if d < drops.count && drops[d] == i { d += 1; continue }
            order.append(i)
        }
        var pks: [Int64] = [], entities: [Int32] = []
        pks.reserveCapacity(order.count)
        entities.reserveCapacity(order.count)
        for o in order {
            let id = o >= 0 ? chunk.id(o) : adds[-(o + 1)].entry.id
            pks.append(id.primaryKey)
            entities.append(id.entityIndex)
        }
        var keys = chunk.columns
        for k in keys.indices { keys[k].rebuild(order, additions: adds.map { $0.entry.keys[k] }) }
        if order.count <= Self.maxChunk && !order.isEmpty {
            let rebuilt = Chunk(handle: chunk.handle, pks: pks[...], entities: entities[...], columns: keys)
            chunks[c] = rebuilt
            meta[c] = ChunkMeta(rebuilt, start: meta[c].start)
            fences.set(fence(of: rebuilt), at: c)
            stamp(rebuilt)
            return nil
        }
        var pieces: [Chunk] = []
        var start = 0
        let pieceCount = (order.count + Self.chunkSize - 1) / Self.chunkSize
        for p in 0..<pieceCount {
            let end = order.count * (p + 1) / pieceCount
            let handle = p == 0 ? chunk.handle : newHandle()
            pieces.append(Chunk(handle: handle, pks: pks[start..<end], entities: entities[start..<end],
                                columns: keys.map { $0.slice(start..<end) }))
            start = end
        }
        if pieces.isEmpty {
            slotOfHandle[Int(chunk.handle)] = -1
            freeHandles.append(chunk.handle)
        }
        return pieces
    }

    /// Puts the pieces replacing chunks in place, carrying sizes, handles and fences along;
    /// only the chunks from the first replaced one on change slots.
    private mutating func splice(_ replacements: [(chunk: Int, pieces: [Chunk])]) {
        guard let firstChanged = replacements.first?.chunk else {
            renumber()
            return
        }
        // From the last replaced chunk back, so earlier slots stay where they are.
        for (r, pieces) in replacements.reversed() {
            for piece in pieces { stamp(piece) }
            guard let head = pieces.first else {
                chunks.remove(at: r)
                meta.remove(at: r)
                fences.remove(at: r)
                continue
            }
            chunks[r] = head
            meta[r] = ChunkMeta(head)
            fences.set(fence(of: head), at: r)
            let rest = pieces.dropFirst()
            chunks.insert(contentsOf: rest, at: r + 1)
            meta.insert(contentsOf: rest.map { ChunkMeta($0) }, at: r + 1)
            for (n, piece) in rest.enumerated() { fences.insert(fence(of: piece), at: r + 1 + n) }
        }
        for i in firstChanged..<meta.count { slotOfHandle[Int(meta[i].handle)] = Int32(i) }
        renumber()
        // Too many small chunks after many removals: cut them again.
        if chunks.count > 2 * (count / Self.chunkSize) + 16 { rechunk() }
        assert(fences.count == chunks.count && meta.count == chunks.count)
    }

    /// Cuts every result into fresh chunks of ``chunkSize``.
    private mutating func rechunk() {
        var pks: [Int64] = [], entities: [Int32] = []
        var columns = sortKeys.map { _ in KeyColumn() }
        for chunk in chunks {
            chunk.appendIDs(to: &pks, &entities)
            for k in columns.indices { columns[k].append(contentsOf: chunk.column(k), range: 0..<chunk.count) }
        }
        self = SortedResults(sortKeys: sortKeys, pks: pks, entities: entities, columns: columns)
    }

    /// Where runs of equal first keys start, and the first key of each run (runs whose keys
    /// share a section name are one).
    ///
    /// A chunk whose fence equals the next chunk's holds that one value throughout when the
    /// first key orders exactly by value (typed numbers, dates, booleans, binary strings):
    /// such chunks are passed over on the fences alone, so a million results in a few
    /// sections cost a pass over the chunks' fences, not over every result.
    func runs() -> [(start: Int, key: Value)] {
        guard let first = sortKeys.first, count > 0 else { return [] }
        var result: [(start: Int, key: Value)] = []
        var previous: Value?
        func visit(_ value: Value, at global: Int) {
            if let p = previous, p == value || p.sectionName == value.sectionName { return }
            previous = value
            result.append((global, value))
        }
        let exactKinds: Set<KeyColumn.Kind> = first.comparison == .binary ? [.integer, .bool, .double, .date, .string] : [.integer, .bool, .double, .date]
        let uniformByFences = exactKinds.contains(fences.kind)
        for (c, chunk) in chunks.enumerated() where chunk.count > 0 {
            if uniformByFences && c + 1 < chunks.count && fences.same(c, as: fences, c + 1) {
                visit(fences.value(at: c), at: meta[c].start)
                continue
            }
            for i in 0..<chunk.count where i == 0 || !chunk.same(0, i, as: chunk, i - 1) {
                visit(chunk.value(0, at: i), at: meta[c].start + i)
            }
        }
        return result
    }

    /// Every column end to end (for the cache file): primary keys, entity indexes, keys.
    func flattened() -> (pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        var pks: [Int64] = [], entities: [Int32] = []
        pks.reserveCapacity(count)
        entities.reserveCapacity(count)
        var columns = sortKeys.map { _ in KeyColumn() }
        for chunk in chunks {
            chunk.appendIDs(to: &pks, &entities)
            for k in columns.indices { columns[k].append(contentsOf: chunk.column(k), range: 0..<chunk.count) }
        }
        return (pks, entities, columns)
    }
}

