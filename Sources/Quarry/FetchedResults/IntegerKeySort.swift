extension Array {
    /// The elements in increasing order of `key` (a non-negative integer), equal keys in
    /// their original order.
    ///
    /// Sorts packed integers (`key` and position in one `UInt64`) instead of comparing
    /// elements through a closure: the change bookkeeping sorts a thousand entries several
    /// times an event, and this is several times faster. Keys too large to pack (or more than
    /// a million elements) fall back to a stable closure sort.
    func sortedByKey(_ key: (Element) -> Int) -> [Element] {
        let keys = map(key)
        let positionBits: UInt64 = 20
        guard count < 1 << positionBits, keys.allSatisfy({ $0 >= 0 && $0 < 1 << 43 }) else {
            return indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { self[$0] }
        }
        var packed = keys.enumerated().map { UInt64($0.element) << positionBits | UInt64($0.offset) }
        packed.sort()
        let mask: UInt64 = 1 << positionBits - 1
        return packed.map { self[Int($0 & mask)] }
    }
}
