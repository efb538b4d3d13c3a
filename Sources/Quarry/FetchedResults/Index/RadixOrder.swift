extension Array {
    /// The elements in increasing order of `key`, equal keys in their original order.
    ///
    /// A least-significant-digit radix sort of the keys, a byte at a time, that skips the
    /// bytes all keys share (the high bytes of small keys): no comparison closure and no
    /// merge passes. The change bookkeeping sorts a thousand entries several times an event,
    /// and this costs a few passes over them.
    func sortedByKey(_ key: (Element) -> Int) -> [Element] {
        guard count > 1 else { return self }
        // Order-preserving: flipping the sign bit maps Int order onto UInt64 order.
        let keys = map { UInt64(bitPattern: Int64(key($0))) ^ (1 << 63) }
        return radixOrder(keys).map { self[$0] }
    }
}

/// The positions of `keys` in increasing order of key, equal keys by position (a stable
/// least-significant-digit radix sort, skipping the bytes all keys share).
func radixOrder(_ keys: [UInt64]) -> [Int] {
    let n = keys.count
    guard n > 1 else { return Array(0..<n) }
    guard n > 48 else {
        return (0..<n).sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
    }
    return keys.withUnsafeBufferPointer { keys in
        // All eight byte histograms in one pass over the keys.
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { counts in
            for k in keys {
                var k = k
                for b in 0..<8 {
                    counts[b << 8 | Int(k & 0xFF)] += 1
                    k >>= 8
                }
            }
        }
        var order = Array(0..<n), spare = [Int](repeating: 0, count: n)
        for b in 0..<8 {
            let shift = UInt64(8 * b)
            // Every key has the same byte here: this pass would not move anything.
            if counts[b << 8 | Int((keys[0] >> shift) & 0xFF)] == n { continue }
            counts.withUnsafeMutableBufferPointer { counts in
                var sum = 0
                for d in 0..<256 {
                    let c = counts[b << 8 | d]
                    counts[b << 8 | d] = sum
                    sum += c
                }
                order.withUnsafeBufferPointer { from in
                    spare.withUnsafeMutableBufferPointer { to in
                        for i in from {
                            let d = b << 8 | Int((keys[i] >> shift) & 0xFF)
                            to[counts[d]] = i
                            counts[d] += 1
                        }
                    }
                }
            }
            swap(&order, &spare)
        }
        return order
    }
}
