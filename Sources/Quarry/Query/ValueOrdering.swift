import Foundation

/// The one ordering of values both back ends use, matching how SQLite compares what Quarry
/// stores: `NULL` < numbers (integers, doubles, booleans, dates, decimals) < text (strings,
/// UUIDs, URIs, JSON) < binary; numbers numerically, text by UTF-8 bytes, binary by bytes.
public enum ValueOrdering {
    /// What a value is compared as.
    enum Comparable {
        case null
        case number(Double, exactInteger: Int64?)
        case text(String)
        case blob(Data)
    }

    static func comparable(_ v: Value) -> Comparable {
        switch v {
        case .null: return .null
        case .integer(let i): return .number(Double(i), exactInteger: i)
        case .double(let d): return .number(d, exactInteger: nil)
        case .bool(let b): return .number(b ? 1 : 0, exactInteger: b ? 1 : 0)
        case .date(let d): return .number(d.timeIntervalSinceReferenceDate, exactInteger: nil)
        case .decimal(let d): return .number(NSDecimalNumber(decimal: d.decimal).doubleValue, exactInteger: nil)
        case .string(let s): return .text(s)
        case .uuid(let u): return .text(u.uuidString)
        case .uri(let u): return .text(u.absoluteString)
        case .json(let j): return .text(j.jsonText)
        case .data(let d): return .blob(d)
        }
    }

    /// The text of a value stored as text (strings, UUIDs, URIs, JSON), else `nil`.
    public static func text(of v: Value) -> String? {
        if case .text(let s) = comparable(v) { return s }
        return nil
    }

    private static func rank(_ c: Comparable) -> Int {
        switch c {
        case .null: return 0
        case .number: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// Compares two values: negative, zero or positive. Text is folded by `options` first.
    public static func compare(_ a: Value, _ b: Value, options: ComparisonOptions = []) -> Int {
        let ca = comparable(a), cb = comparable(b)
        let ra = rank(ca), rb = rank(cb)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (ca, cb) {
        case (.number(let x, let xi), .number(let y, let yi)):
            if let xi, let yi { return xi == yi ? 0 : (xi < yi ? -1 : 1) }
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.text(let x), .text(let y)):
            return StringMatching.compareBinary(StringMatching.fold(x, options), StringMatching.fold(y, options))
        case (.blob(let x), .blob(let y)):
            return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
        default:
            return 0
        }
    }
}
