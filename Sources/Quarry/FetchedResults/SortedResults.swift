/// The controller's index: object IDs with their sort keys, in fetch order (sort keys, then
/// object ID), kept sorted by binary search.
///
/// Stored column by column (one ID array, one value array per sort key) so a million results
/// cost no allocation per result, and re-placing a batch copies whole runs.
struct SortedResults {
    /// One result as the comparisons see it (used for the few entries a change event touches).
    struct Entry {
        var id: ObjectID
        var keys: [Value]
    }

    let sortKeys: [SortKey]
    /// The object IDs, in order.
    private(set) var ids: [ObjectID] = [] {
        didSet { positions = PositionIndex(ids) }
    }
    /// One array per sort key, aligned with `ids`.
    private(set) var columns: [[Value]]
    /// Where each ID is in `ids`.
    private(set) var positions = PositionIndex([])

    init(sortKeys: [SortKey], entries: [Entry] = []) {
        self.sortKeys = sortKeys
        var columns = sortKeys.map { _ in [Value]() }
        for c in columns.indices {
            columns[c].reserveCapacity(entries.count)
            for e in entries { columns[c].append(e.keys[c]) }
        }
        self.columns = columns
        self.ids = entries.map(\.id)
        self.positions = PositionIndex(ids)
    }

    /// An index from stored columns (a cache file), already in order.
    init(sortKeys: [SortKey], ids: [ObjectID], columns: [[Value]]) {
        self.sortKeys = sortKeys
        self.columns = columns
        self.ids = ids
        self.positions = PositionIndex(ids)
    }

    var count: Int { ids.count }

    /// The index of `id`, in constant time.
    func position(of id: ObjectID) -> Int? { positions[id] }

    /// The sort keys of the result at `index`.
    func keys(at index: Int) -> [Value] { columns.map { $0[index] } }

    /// Whether `a` sorts before `b` (the fetch's order; ties by object ID).
    func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (i, key) in sortKeys.enumerated() {
            let c = key.compare(a.keys[i], b.keys[i])
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return a.id < b.id
    }

    /// Whether the result at `index` sorts before `entry`.
    func precedes(_ index: Int, _ entry: Entry) -> Bool {
        for (i, key) in sortKeys.enumerated() {
            let c = key.compare(columns[i][index], entry.keys[i])
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return ids[index] < entry.id
    }

    /// The first index whose result does not sort before `entry`.
    func insertionIndex(for entry: Entry) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(mid, entry) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Renames several results at once (one rebuild of the position index); their places
    /// among equal keys are fixed by the next ``apply(dropping:adding:)``.
    mutating func rename(_ renames: [(index: Int, id: ObjectID)]) {
        var copy = ids
        for r in renames { copy[r.index] = r.id }
        ids = copy
    }

    /// Removes the results at `drop` and merges `additions` in: each addition finds its place
    /// among the old results by binary search, then the kept runs are copied in bulk, so a
    /// batch of k changes costs O(k log n) comparisons plus one copy of the arrays.
    mutating func apply(dropping drop: Set<Int>, adding additions: [Entry]) {
        let drops = drop.sorted()
        let placed = additions.sorted(by: precedes).map { (at: insertionIndex(for: $0), entry: $0) }
        let total = ids.count - drops.count + additions.count
        var newIDs: [ObjectID] = []
        newIDs.reserveCapacity(total)
        var newColumns = columns.map { _ in [Value]() }
        for c in newColumns.indices { newColumns[c].reserveCapacity(total) }
        func copyRun(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            newIDs.append(contentsOf: ids[range])
            for c in columns.indices { newColumns[c].append(contentsOf: columns[c][range]) }
        }
        func add(_ e: Entry) {
            newIDs.append(e.id)
            for c in columns.indices { newColumns[c].append(e.keys[c]) }
        }
        var d = 0, a = 0, i = 0
        while i < ids.count || a < placed.count {
            let nextDrop = d < drops.count ? drops[d] : ids.count
            let nextAdd = a < placed.count ? placed[a].at : ids.count
            let stop = min(nextDrop, nextAdd, ids.count)
            if stop > i {
                copyRun(i..<stop)
                i = stop
            }
            if a < placed.count && placed[a].at == i {
                add(placed[a].entry)
                a += 1
            } else if d < drops.count && drops[d] == i {
                i += 1
                d += 1
            } else if i >= ids.count {
                while a < placed.count { add(placed[a].entry); a += 1 }
            }
        }
        columns = newColumns
        ids = newIDs
    }

    /// Where runs of equal first keys start, and the first key of each run.
    func runs() -> [(start: Int, key: Value)] {
        guard let first = columns.first, !first.isEmpty else { return [] }
        var result: [(start: Int, key: Value)] = [(0, first[0])]
        for i in 1..<first.count where first[i] != first[i - 1] && first[i].sectionName != first[i - 1].sectionName {
            result.append((i, first[i]))
        }
        return result
    }
}

/// Object ID → position in a results array: a dense table over primary keys when they are
/// compact (4 bytes a result, the common case), a dictionary otherwise; temporary IDs in a
/// small dictionary. Rebuilt in one pass whenever the results change shape.
struct PositionIndex {
    private var dense: [Int32] = []
    private var denseEntity: [Int32] = []
    private var sparse: [ObjectID: Int] = [:]

    init(_ ids: [ObjectID]) {
        var maxKey: Int64 = -1
        for id in ids where id.primaryKey > maxKey { maxKey = id.primaryKey }
        guard maxKey >= 0 && maxKey < Int64(ids.count) * 4 + 1024 else {
            for (i, id) in ids.enumerated() { sparse[id] = i }
            return
        }
        var dense = [Int32](repeating: -1, count: Int(maxKey) + 1)
        var denseEntity = [Int32](repeating: -1, count: Int(maxKey) + 1)
        dense.withUnsafeMutableBufferPointer { positions in
            denseEntity.withUnsafeMutableBufferPointer { kinds in
                for i in ids.indices {
                    let id = ids[i]
                    if id.primaryKey >= 0 {
                        positions[Int(id.primaryKey)] = Int32(i)
                        kinds[Int(id.primaryKey)] = id.entityIndex
                    } else {
                        sparse[id] = i
                    }
                }
            }
        }
        self.dense = dense
        self.denseEntity = denseEntity
    }

    subscript(id: ObjectID) -> Int? {
        if id.primaryKey >= 0 && Int(id.primaryKey) < dense.count {
            let i = dense[Int(id.primaryKey)]
            return i >= 0 && denseEntity[Int(id.primaryKey)] == id.entityIndex ? Int(i) : nil
        }
        return sparse[id]
    }
}
