/// One sort key of a fetch: a key path, a direction and how strings compare.
///
/// SQL `ORDER BY` and in-memory sorting give the same order: numbers numerically, `nil`
/// first when ascending, strings per ``StringComparison``, and ties broken by object ID (ascending
/// primary key) in both.
public struct SortKey: Sendable, Hashable, CustomStringConvertible {
    /// How strings compare.
    public enum StringComparison: String, Sendable, Hashable {
        /// By UTF-8 bytes (SQLite's `BINARY`).
        case binary
        /// Case-folded, then by bytes (see ``StringMatching/fold(_:_:)``).
        case caseInsensitive
        /// Like Finder: case-insensitive, runs of digits compared as numbers (`file2 < file10`).
        case localizedStandard
    }

    /// The key path (attributes, through to-one relationships).
    public var keyPath: String
    /// Ascending (`true`) or descending.
    public var ascending: Bool
    /// How strings compare.
    public var comparison: StringComparison

    /// Creates a sort descriptor.
    public init(_ keyPath: String, ascending: Bool = true, comparison: StringComparison = .binary) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }

    /// Parses `key`, `-key` (descending), with an optional `:ci` or `:std` comparison suffix.
    public init(parsing text: String) {
        var t = Substring(text)
        var ascending = true
        if t.hasPrefix("-") { ascending = false; t = t.dropFirst() } else if t.hasPrefix("+") { t = t.dropFirst() }
        var comparison = StringComparison.binary
        if let colon = t.lastIndex(of: ":") {
            switch t[t.index(after: colon)...] {
            case "ci": comparison = .caseInsensitive
            case "std": comparison = .localizedStandard
            default: break
            }
            t = t[..<colon]
        }
        self.init(String(t), ascending: ascending, comparison: comparison)
    }

    public var description: String {
        (ascending ? "" : "-") + keyPath + (comparison == .binary ? "" : comparison == .caseInsensitive ? ":ci" : ":std")
    }

    /// Compares two values under this key's string comparison (direction not applied).
    public func compare(_ a: Value, _ b: Value) -> Int {
        if let x = ValueOrdering.text(of: a), let y = ValueOrdering.text(of: b) {
            switch comparison {
            case .binary: return StringMatching.compareBinary(x, y)
            case .caseInsensitive: return StringMatching.compareBinary(StringMatching.fold(x, .caseInsensitive), StringMatching.fold(y, .caseInsensitive))
            case .localizedStandard: return StandardStringOrder.compare(x, y)
            }
        }
        return ValueOrdering.compare(a, b)
    }
}

/// Finder-like string order: case-insensitive, digit runs by numeric value.
public enum StandardStringOrder {
    /// Compares `a` and `b`: negative, zero or positive. Equal-looking strings that differ
    /// (`a01` / `a1`, `A` / `a`) fall back to binary order so the result is a total order.
    public static func compare(_ a: String, _ b: String) -> Int {
        let x = chunks(StringMatching.fold(a, .caseInsensitive))
        let y = chunks(StringMatching.fold(b, .caseInsensitive))
        for (p, q) in zip(x, y) {
            switch (p, q) {
            case (.number(let m), .number(let n)):
                let mt = m.drop { $0 == "0" }, nt = n.drop { $0 == "0" }
                if mt.count != nt.count { return mt.count < nt.count ? -1 : 1 }
                let c = StringMatching.compareBinary(String(mt), String(nt))
                if c != 0 { return c }
            case (.text(let s), .text(let t)):
                let c = StringMatching.compareBinary(s, t)
                if c != 0 { return c }
            case (.number, .text): return -1
            case (.text, .number): return 1
            }
        }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        return StringMatching.compareBinary(a, b)
    }

    /// A run of ASCII digits or of other characters (``PostgreSQLStandardSortKey`` encodes them).
    enum Chunk {
        case number(Substring)
        case text(String)
    }

    /// `s` cut into digit and non-digit runs, by characters.
    static func chunks(_ s: String) -> [Chunk] {
        var result: [Chunk] = []
        var i = s.startIndex
        while i < s.endIndex {
            let isDigit = s[i].isASCII && s[i].isNumber
            var j = i
            while j < s.endIndex && (s[j].isASCII && s[j].isNumber) == isDigit { j = s.index(after: j) }
            result.append(isDigit ? .number(s[i..<j]) : .text(String(s[i..<j])))
            i = j
        }
        return result
    }
}
