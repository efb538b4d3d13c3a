/// A set of property indexes of one entity: attributes are `0..<attributes.count`, relationships
/// follow at `attributes.count + i`.
public struct PropertyMask: Sendable, Hashable {
    private var words: [UInt64]

    /// An empty mask.
    public init() { words = [] }

    /// Whether no property is in the mask.
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Adds property `index`.
    public mutating func insert(_ index: Int) {
        let w = index >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w - words.count + 1)) }
        words[w] |= 1 << UInt64(index & 63)
    }

    /// Whether property `index` is in the mask.
    public func contains(_ index: Int) -> Bool {
        let w = index >> 6
        return w < words.count && words[w] & (1 << UInt64(index & 63)) != 0
    }

    /// Adds every property of `other`.
    public mutating func formUnion(_ other: PropertyMask) {
        if other.words.count > words.count { words.append(contentsOf: repeatElement(0, count: other.words.count - words.count)) }
        for (i, w) in other.words.enumerated() { words[i] |= w }
    }

    /// Properties 0 to 63 as bits (bit i: property i), with every bit set when the mask also
    /// holds a higher property: a one-word summary that never says "unchanged" wrongly.
    var lowBits: UInt64 {
        guard let first = words.first else { return 0 }
        return words.dropFirst().contains { $0 != 0 } ? .max : first
    }

    /// The indexes in the mask, ascending.
    public var indices: [Int] {
        var result: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (1 << UInt64(bit)) != 0 { result.append(w * 64 + bit) }
        }
        return result
    }

    /// The names of the properties in the mask, for `entity`.
    public func keys(in entity: EntityDescription) -> [String] {
        let a = entity.attributes.count
        return indices.compactMap { i in
            i < a ? entity.attributes[i].name : (i - a < entity.relationships.count ? entity.relationships[i - a].name : nil)
        }
    }
}
