/// The controller's index: object IDs with their sort keys, in fetch order (sort keys, then
/// object ID), kept sorted by binary search.
///
/// Stored in chunks (``ResultsChunk``) of at most ``maxChunk`` results, each one block of
/// memory (``ResultsBlock``: IDs and typed sort keys by slot, strings of up to seven bytes
/// whole and longer ones' first bytes; the text of longer strings and values of other kinds
/// beside it), so a million results cost about 20 bytes each and no allocation per result,
/// a change touches one block per chunk, and a batch of k changes
/// rewrites only the chunks it touches (O(k · chunk) work, not O(n)). Blocks come from
/// ``BlockArena``. Each object's place is found in constant time through ``PositionIndex``
/// (primary key → chunk handle and slot), which changes only for results that move to another
/// chunk. What a lookup needs of a chunk (its block, count, first index and handle) is one
/// ``ChunkRecord``. The first sort key of every chunk's first result is kept in one
/// contiguous ``fences`` column, so the search over chunks rarely touches the chunks
/// themselves; a batch galloping through it in key order reads it once.
///
/// A class: the chunks' blocks are raw memory owned by the chunks, so a second value sharing
/// them could never be edited safely; there is one index, mutated in place.
///
/// The files of this folder: lookups here, the search for insertion points in
/// `SortedResults+InsertionPoints.swift`, edits in `SortedResults+Apply.swift`, runs of
/// equal keys in `SortedResults+Runs.swift`, building in `SortedResults+Builder.swift`, the
/// invariants in `SortedResults+Invariants.swift`.
final class SortedResults {
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

    /// Where one result sits: chunk `chunk` (its index in ``chunks``), row `offset` in it.
    struct Location: Comparable {
        var chunk: Int
        var offset: Int

        /// The chunk's index (the name the controller's change code uses; see ``chunk``).
        var slot: Int { chunk }

        /// Row `offset` of chunk `chunk`.
        init(chunk: Int, offset: Int) {
            self.chunk = chunk
            self.offset = offset
        }

        static func < (a: Location, b: Location) -> Bool { a.chunk != b.chunk ? a.chunk < b.chunk : a.offset < b.offset }
    }

    /// Results per chunk when chunks are cut, and the most a chunk holds before it is split
    /// (a multiple of 8, at most ``ResultsBlock/maxCapacity``). Debug builds use tiny chunks,
    /// so that every test with a few dozen results splits, empties and re-chunks them, and
    /// check the invariants after every change (``checkInvariantsInDebugBuilds()``).
    #if DEBUG
    static let chunkSize = 4
    static let maxChunk = 8
    #else
    static let chunkSize = 64
    static let maxChunk = 128
    #endif
    /// A handle that names no chunk in ``chunkIndexOfHandle``.
    static let noChunk: Int32 = -1

    let sortKeys: [SortKey]
    // The state an edit reads and writes for every changed result. The index is used from one
    // queue at a time (its controller's), so no two accesses overlap; debug builds check
    // that dynamically, release builds skip the check (a runtime call per access, several
    // per changed result: about a tenth of applying a batch).
    #if DEBUG
    /// The chunks, in order.
    var chunks: [ResultsChunk] = []
    /// `chunkRecords[c]`: chunk `c`'s block, count, first index and handle (read without
    /// touching the chunk object).
    var chunkRecords: [ChunkRecord] = []
    /// Row 0 of the first key column of each chunk (for the search over chunks).
    var fences = KeyColumn()
    /// Chunk handle → the chunk's index in ``chunks`` (``noChunk``: an unused handle).
    var chunkIndexOfHandle: [Int32] = []
    /// Object ID → its chunk's handle and its slot.
    var positions = PositionIndex()
    #else
    @exclusivity(unchecked) var chunks: [ResultsChunk] = []
    @exclusivity(unchecked) var chunkRecords: [ChunkRecord] = []
    @exclusivity(unchecked) var fences = KeyColumn()
    @exclusivity(unchecked) var chunkIndexOfHandle: [Int32] = []
    @exclusivity(unchecked) var positions = PositionIndex()
    #endif
    /// How many results there are.
    var count = 0
    #if DEBUG
    /// How many times ``checkInvariantsInDebugBuilds()`` was called (it checks one call in a
    /// stride that grows with ``count``).
    var debugChecks = 0
    #endif
    var freeHandles: [Int32] = []

    /// An index of `chunks` (in order, handles `0..<chunks.count`), holding `count` results
    /// whose largest primary key is `maxPrimaryKey`.
    init(sortKeys: [SortKey], chunks: [ResultsChunk], maxPrimaryKey: Int64, count: Int) {
        self.sortKeys = sortKeys
        self.chunks = chunks
        chunkIndexOfHandle = [Int32](repeating: Self.noChunk, count: chunks.count)
        positions.reserve(maxKey: maxPrimaryKey, count: count)
        for chunk in chunks { recordPositions(of: chunk) }
        rebuildChunkRecords()
        checkInvariantsInDebugBuilds()
    }

    /// An index of `entries`, already in order.
    convenience init(sortKeys: [SortKey], entries: [Entry] = []) {
        var builder = Builder(sortKeys: sortKeys)
        for entry in entries { builder.append(entry) }
        let built = builder.finishChunks()
        self.init(sortKeys: sortKeys, chunks: built.chunks, maxPrimaryKey: built.maxPrimaryKey, count: built.count)
    }

    /// An index from whole columns (a fetch or a cache file), already in order.
    convenience init(sortKeys: [SortKey], pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        precondition(pks.count == entities.count && columns.count == sortKeys.count && columns.allSatisfy { $0.count == pks.count })
        var chunks: [ResultsChunk] = []
        var start = 0
        while start < pks.count {
            let end = min(pks.count, start + Self.chunkSize)
            chunks.append(ResultsChunk(handle: Int32(chunks.count), pks: pks[start..<end], entities: entities[start..<end],
                                       columns: columns.map { $0.slice(start..<end) }))
            start = end
        }
        self.init(sortKeys: sortKeys, chunks: chunks, maxPrimaryKey: pks.max() ?? -1, count: pks.count)
    }

    // MARK: Bookkeeping

    /// The first key of row 0 of `chunk` (`.null` when there is no key).
    func fence(of chunk: ResultsChunk) -> Value {
        chunk.keyCount == 0 || chunk.count == 0 ? .null : chunk.value(0, at: 0)
    }

    /// A handle for a new chunk.
    func newHandle() -> Int32 {
        if let h = freeHandles.popLast() { return h }
        chunkIndexOfHandle.append(Self.noChunk)
        return Int32(chunkIndexOfHandle.count - 1)
    }

    /// Recomputes the chunks' starts and ``count`` after chunks changed size.
    func renumber() {
        count = chunkRecords.withUnsafeMutableBufferPointer { records in
            var total = 0
            for c in records.indices {
                records[c].start = total
                total += Int(records[c].count)
            }
            return total
        }
    }

    /// Recomputes the chunk records, fences and handles' chunk indexes from the chunks.
    func rebuildChunkRecords() {
        chunkRecords = chunks.map { ChunkRecord($0) }
        fences = KeyColumn(chunks.map(fence(of:)))
        for (c, chunk) in chunks.enumerated() { chunkIndexOfHandle[Int(chunk.handle)] = Int32(c) }
        renumber()
    }

    /// Records the handle and slot of every result of `chunk` in the position index.
    func recordPositions(of chunk: ResultsChunk) {
        for row in 0..<chunk.count { positions.set(chunk.id(row), handle: chunk.handle, slot: chunk.block.slot(ofRow: row)) }
    }

    /// Takes over `other`'s chunks and bookkeeping (``other`` is left to be dropped).
    func adopt(_ other: SortedResults) {
        chunks = other.chunks
        chunkRecords = other.chunkRecords
        count = other.count
        fences = other.fences
        chunkIndexOfHandle = other.chunkIndexOfHandle
        freeHandles = other.freeHandles
        positions = other.positions
    }

    // MARK: Reading

    /// The chunk holding global index `i` (`i < count`), and the offset in it.
    func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        var low = 0, high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if chunkRecords[mid].start <= i { low = mid } else { high = mid - 1 }
        }
        return (low, i - chunkRecords[low].start)
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

    /// The global index of `location`.
    func index(of location: Location) -> Int { chunkRecords[location.chunk].start + location.offset }

    /// The sort keys stored at `location`.
    func keys(at location: Location) -> [Value] {
        sortKeys.indices.map { chunks[location.chunk].value($0, at: location.offset) }
    }

    // MARK: Order

    /// Whether `a` sorts before `b` (the fetch's order; ties by object ID).
    func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (i, key) in sortKeys.enumerated() {
            let c = key.compare(a.keys[i], b.keys[i])
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return a.id < b.id
    }

    /// Whether row `row` of `chunk` sorts before `entry`.
    @inline(__always)
    func precedes(_ chunk: ResultsChunk, _ row: Int, _ entry: Entry) -> Bool {
        for i in sortKeys.indices {
            let key = sortKeys[i]
            let c = chunk.compare(i, row, entry.keys[i], key: key)
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return chunk.id(row) < entry.id
    }

    /// The address of chunk `c`'s object, read without retaining it: a retain writes the
    /// object's header, so it would wait for the very line a prefetch is starting to load.
    /// A Swift class reference is its object's address (the stable ABI), so the element is
    /// read as one.
    @inline(__always)
    func chunkObjectAddress(_ c: Int) -> UnsafeRawPointer {
        precondition(c >= 0 && c < chunks.count)
        return chunks.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress! + c).load(as: UnsafeRawPointer.self) }
    }

    /// Starts loading chunk `c`'s record (a hint; nothing for a `c` out of range).
    @inline(__always)
    func prefetchRecord(_ c: Int) {
        guard c >= 0 && c < chunkRecords.count else { return }
        chunkRecords.withUnsafeBufferPointer { Prefetch.read($0.baseAddress! + c) }
    }
}
