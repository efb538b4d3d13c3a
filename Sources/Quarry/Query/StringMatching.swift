import Foundation
import Synchronization

/// The string semantics shared by both predicate back ends, so SQLite and memory agree.
///
/// - Plain comparisons order strings by their UTF-8 bytes (SQLite's `BINARY` collation), and
///   equality is byte equality (not Swift's canonical equivalence).
/// - `[c]` folds case with Unicode's default lowercase mapping; `[d]` removes diacritics: the
///   string is canonically decomposed and every non-spacing mark (`Mn`) dropped. Folded strings
///   are then recomposed (NFC), so `é` and `e` + U+0301 fold alike.
/// - `LIKE` takes `*` (any run of characters) and `?` (one character), on grapheme clusters.
/// - `MATCHES` is a whole-string match by ICU's engine (`NSRegularExpression`'s syntax) under a
///   step budget (`BoundedRegex`); `[c]` makes it case-insensitive, `[d]` folds the text (not
///   the pattern).
///
/// The SQL back end calls these same functions through functions registered on each SQLite
/// connection (`quarry_fold`, `quarry_match`), so results are identical by construction.
public enum StringMatching {
    /// `s` folded by `options`.
    public static func fold(_ s: String, _ options: ComparisonOptions) -> String {
        guard !options.isEmpty else { return s }
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: nothing to decompose or strip; case folding is byte-wise.
            guard options.contains(.caseInsensitive), s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
            return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        let key = FoldKey(text: s, options: options.rawValue)
        if let cached = foldCache.withLock({ $0[key] }) { return cached }
        let folded = foldUnicode(s, options)
        foldCache.withLock { cache in
            if cache.count >= 4096 { cache.removeAll(keepingCapacity: true) }
            cache[key] = folded
        }
        return folded
    }

    private static func foldUnicode(_ s: String, _ options: ComparisonOptions) -> String {
        var scalars = s.decomposedStringWithCanonicalMapping.unicodeScalars.map { $0 }
        if options.contains(.diacriticInsensitive) {
            scalars.removeAll { $0.properties.generalCategory == .nonspacingMark }
        }
        var text = String(String.UnicodeScalarView(scalars))
        if options.contains(.caseInsensitive) { text = text.lowercased() }
        return text.precomposedStringWithCanonicalMapping
    }

    /// Orders two strings by UTF-8 bytes: negative, zero or positive.
    public static func compareBinary(_ a: String, _ b: String) -> Int {
        var ia = a.utf8.makeIterator()
        var ib = b.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// Whether `text` satisfies `text op pattern` for a string operator, with `options`;
    /// `false` when a `MATCHES` pattern exceeds its step budget (``match(_:text:pattern:options:)`` throws then).
    public static func matches(_ op: ComparisonOperator, text: String, pattern: String, options: ComparisonOptions) -> Bool {
        // The non-throwing form, documented: a MATCHES over its step budget answers false (the throwing form reports it).
        (try? match(op, text: text, pattern: pattern, options: options)) ?? false
    }

    /// Whether `text` satisfies `text op pattern` for a string operator, with `options`.
    /// - Throws: ``QueryError/regexTooCostly(pattern:)`` when a `MATCHES` pattern needs more
    ///   than its step budget on `text` (see `BoundedRegex`): never a hang.
    public static func match(_ op: ComparisonOperator, text: String, pattern: String, options: ComparisonOptions) throws(QueryError) -> Bool {
        if op == .matches { return try regexMatches(text: fold(text, options.subtracting(.caseInsensitive)), pattern: pattern,
                                                    caseInsensitive: options.contains(.caseInsensitive)) }
        let t = fold(text, options)
        let p = fold(pattern, options)
        switch op {
        case .beginsWith: return t.utf8.starts(with: p.utf8)
        case .endsWith: return t.utf8.reversed().starts(with: p.utf8.reversed())
        case .contains: return p.isEmpty || t.utf8.count >= p.utf8.count && containsBytes(Array(t.utf8), Array(p.utf8))
        case .like: return likeASCII(t, p) ?? like(Array(t), Array(p))
        default: return false
        }
    }

    private static func containsBytes(_ t: [UInt8], _ p: [UInt8]) -> Bool {
        guard p.count <= t.count else { return false }
        for start in 0...(t.count - p.count) where t[start] == p[0] {
            if t[start..<(start + p.count)].elementsEqual(p) { return true }
        }
        return false
    }

    /// `LIKE` on the UTF-8 bytes when text and pattern are ASCII without a carriage return
    /// (there every byte is one character: `\r\n` is one), with no copy of either; `nil`
    /// otherwise. A row's name against a 10,000-character pattern costs microseconds, not the
    /// split of the pattern into characters on every row.
    private static func likeASCII(_ t: String, _ p: String) -> Bool? {
        var t = t, p = p
        let result = t.withUTF8 { text in
            p.withUTF8 { pattern -> Bool? in
                guard isPlainASCII(text), isPlainASCII(pattern) else { return nil }
                return like(text, pattern, anyRun: UInt8(ascii: "*"), anyOne: UInt8(ascii: "?"))
            }
        }
        return result
    }

    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // One pass the optimizer vectorizes: no byte at or above 0x80, none a carriage return.
        var high: UInt8 = 0
        var carriageReturns = 0
        for byte in bytes {
            high |= byte
            carriageReturns &+= byte == 0x0D ? 1 : 0
        }
        return high < 0x80 && carriageReturns == 0
    }

    private static func like(_ t: [Character], _ p: [Character]) -> Bool {
        like(t, p, anyRun: "*", anyOne: "?")
    }

    /// `*`/`?` wildcard matching (iterative; on a mismatch only the last `*` backtracks, so the
    /// cost is at most the text's length times the longest run between two `*`s).
    private static func like<C: RandomAccessCollection>(_ t: C, _ p: C, anyRun: C.Element, anyOne: C.Element) -> Bool
    where C.Element: Equatable, C.Index == Int {
        var ti = t.startIndex, pi = p.startIndex
        var star = -1, mark = 0
        while ti < t.endIndex {
            if pi < p.endIndex && (p[pi] == anyOne || (p[pi] != anyRun && p[pi] == t[ti])) {
                ti += 1; pi += 1
            } else if pi < p.endIndex && p[pi] == anyRun {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.endIndex && p[pi] == anyRun { pi += 1 }
        return pi == p.endIndex
    }

    private static func regexMatches(text: String, pattern: String, caseInsensitive: Bool) throws(QueryError) -> Bool {
        guard let regex = compiledRegex(pattern, caseInsensitive: caseInsensitive) else { return false }
        return try regex.matches(text)
    }

    /// Whether `pattern` compiles (checked before a predicate runs).
    public static func isValidRegex(_ pattern: String) -> Bool {
        compiledRegex(pattern, caseInsensitive: false) != nil
    }

    private static func compiledRegex(_ pattern: String, caseInsensitive: Bool) -> BoundedRegex? {
        let key = RegexKey(pattern: pattern, caseInsensitive: caseInsensitive)
        return regexCache.withLock { cache in
            // A query matches one pattern against every row: comparing with the last one is a
            // byte comparison, where hashing a long pattern on every row would cost more.
            if let last = cache.last, last.key == key { return last.regex }
            let compiled: BoundedRegex?
            if let cached = cache.compiled[key] {
                compiled = cached
            } else {
                if cache.compiled.count >= 256 { cache.compiled.removeAll(keepingCapacity: true) }
                compiled = BoundedRegex(pattern, caseInsensitive: caseInsensitive)
                cache.compiled[key] = compiled
            }
            cache.last = (key, compiled)
            return compiled
        }
    }
}

/// A `MATCHES` pattern as compiled: its text and whether `[c]` applies.
private struct RegexKey: Hashable {
    var pattern: String
    var caseInsensitive: Bool
}

/// The compiled patterns, and the last one used.
private struct RegexCache {
    var compiled: [RegexKey: BoundedRegex?] = [:]
    var last: (key: RegexKey, regex: BoundedRegex?)?
}
private let regexCache = Mutex<RegexCache>(RegexCache())

/// Recently folded non-ASCII strings: predicates fold the same values over and over.
private struct FoldKey: Hashable {
    var text: String
    var options: Int
}
private let foldCache = Mutex<[FoldKey: String]>([:])
