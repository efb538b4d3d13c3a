/// The controller's index: object IDs with their sort keys, in fetch order (sort keys, then
/// object ID), kept sorted by binary search.
struct SortedResults {
    struct Entry {
        var id: ObjectID
        var keys: [Value]
    }

    let sortKeys: [SortKey]
    private(set) var entries: [Entry] = [] {
        didSet { positions = PositionIndex(entries) }
    }
    /// Where each ID is in `entries`.
    private(set) var positions = PositionIndex([])

    init(sortKeys: [SortKey], entries: [Entry] = []) {
        self.sortKeys = sortKeys
        self.entries = entries
        self.positions = PositionIndex(entries)
    }

    /// The index of `id`, in constant time.
    func position(of id: ObjectID) -> Int? { positions[id] }

    var count: Int { entries.count }

    /// Whether `a` sorts before `b` (the fetch's order; ties by object ID).
    func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (i, key) in sortKeys.enumerated() {
            let c = key.compare(a.keys[i], b.keys[i])
            if c != 0 { return key.ascending ? c < 0 : c > 0 }
        }
        return a.id < b.id
    }

    /// The first index whose entry does not sort before `entry`.
    func insertionIndex(for entry: Entry) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(entries[mid], entry) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of `id`, found by its keys (`nil` when it is not there with those keys).
    func index(of id: ObjectID, keys: [Value]) -> Int? {
        let i = insertionIndex(for: Entry(id: id, keys: keys))
        return i < entries.count && entries[i].id == id ? i : nil
    }

    /// Gives the entry at `index` a new ID (its position may then be out of order until the
    /// next ``apply(dropping:adding:)`` re-places it).
    mutating func rename(at index: Int, to id: ObjectID) {
        entries[index].id = id
    }

    /// Renames several entries at once (one rebuild of the position index).
    mutating func rename(_ renames: [(index: Int, id: ObjectID)]) {
        var copy = entries
        for r in renames { copy[r.index].id = r.id }
        entries = copy
    }

    /// Removes the entries at `drop` and merges `additions` in: each addition finds its place
    /// in the old entries by binary search, then the kept runs are copied in bulk, so a batch
    /// of k changes costs O(k log n) comparisons plus one copy of the array.
    mutating func apply(dropping drop: Set<Int>, adding additions: [Entry]) {
        let drops = drop.sorted()
        // Where each addition goes among the old entries (ties among additions by sort order).
        let placed = additions.sorted(by: precedes).map { (at: insertionIndex(for: $0), entry: $0) }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count - drops.count + additions.count)
        var d = 0, a = 0, i = 0
        while i < entries.count || a < placed.count {
            let nextDrop = d < drops.count ? drops[d] : entries.count
            let nextAdd = a < placed.count ? placed[a].at : entries.count
            let stop = min(nextDrop, nextAdd, entries.count)
            if stop > i {
                merged.append(contentsOf: entries[i..<stop])
                i = stop
            }
            if a < placed.count && placed[a].at == i {
                merged.append(placed[a].entry)
                a += 1
            } else if d < drops.count && drops[d] == i {
                i += 1
                d += 1
            } else if i >= entries.count {
                while a < placed.count { merged.append(placed[a].entry); a += 1 }
            }
        }
        entries = merged
    }
}

/// Object ID → position in a results array: a dense table over primary keys when they are
/// compact (4 bytes a result, the common case), a dictionary otherwise; temporary IDs in a
/// small dictionary. Rebuilt in one pass whenever the results change shape.
struct PositionIndex {
    private var dense: [Int32] = []
    private var denseEntity: [Int32] = []
    private var sparse: [ObjectID: Int] = [:]

    init(_ entries: [SortedResults.Entry]) {
        var maxKey: Int64 = -1
        for e in entries where e.id.primaryKey > maxKey { maxKey = e.id.primaryKey }
        guard maxKey >= 0 && maxKey < Int64(entries.count) * 4 + 1024 else {
            for (i, e) in entries.enumerated() { sparse[e.id] = i }
            return
        }
        var dense = [Int32](repeating: -1, count: Int(maxKey) + 1)
        var denseEntity = [Int32](repeating: -1, count: Int(maxKey) + 1)
        dense.withUnsafeMutableBufferPointer { positions in
            denseEntity.withUnsafeMutableBufferPointer { kinds in
                for i in entries.indices {
                    let id = entries[i].id
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
