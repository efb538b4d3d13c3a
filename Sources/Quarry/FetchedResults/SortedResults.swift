/// The controller's index: object IDs with their sort keys, in fetch order (sort keys, then
/// object ID), kept sorted by binary search.
struct SortedResults {
    struct Entry {
        var id: ObjectID
        var keys: [Value]
    }

    let sortKeys: [SortKey]
    private(set) var entries: [Entry] = []

    init(sortKeys: [SortKey], entries: [Entry] = []) {
        self.sortKeys = sortKeys
        self.entries = entries
    }

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

    /// Removes the entries at `drop` and merges `additions` in, in one pass.
    mutating func apply(dropping drop: Set<Int>, adding additions: [Entry]) {
        let sortedAdditions = additions.sorted(by: precedes)
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count - drop.count + additions.count)
        var a = 0
        for (i, e) in entries.enumerated() where !drop.contains(i) {
            while a < sortedAdditions.count && precedes(sortedAdditions[a], e) {
                merged.append(sortedAdditions[a])
                a += 1
            }
            merged.append(e)
        }
        merged.append(contentsOf: sortedAdditions[a...])
        entries = merged
    }
}
