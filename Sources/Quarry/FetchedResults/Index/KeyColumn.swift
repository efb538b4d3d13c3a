import Foundation

/// One sort key's values for a run of results, stored by type: integers and booleans as
/// `Int64`, doubles and dates as `Double`, strings as UTF-8 (``UTF8Column``), anything else
/// as ``Value``.
/// `nil`s are flagged in `nulls` (empty while there are none).
///
/// Comparisons against a ``Value`` give exactly ``SortKey/compare(_:_:)``'s answer: typed
/// fast paths for the common cases, the generic comparison otherwise.
struct KeyColumn {
    enum Kind: UInt8 {
        case integer = 0, bool, double, date, string, value
    }

    private(set) var kind: Kind
    private(set) var ints: [Int64] = []
    private(set) var doubles: [Double] = []
    private(set) var strings = UTF8Column()
    private(set) var values: [Value] = []
    /// Per row: whether it is `nil` (empty when no row is).
    private(set) var nulls: [Bool] = []
    private(set) var count = 0

    init(kind: Kind = .integer) { self.kind = kind }

    /// A column from its storage (a cache file): the array of `kind` and, if any row is nil,
    /// the flags; `nil` when the sizes disagree.
    init?(kind: Kind, ints: [Int64] = [], doubles: [Double] = [], strings: UTF8Column = UTF8Column(), values: [Value] = [], nulls: [Bool], count: Int) {
        let stored: Int
        switch kind {
        case .integer, .bool: stored = ints.count
        case .double, .date: stored = doubles.count
        case .string: stored = strings.count
        case .value: stored = values.count
        }
        guard stored == count, nulls.isEmpty || nulls.count == count else { return nil }
        self.kind = kind
        self.ints = ints
        self.doubles = doubles
        self.strings = strings
        self.values = values
        self.nulls = nulls
        self.count = count
    }

    /// A column of the values `values` (its kind from the first non-nil one).
    init<S: Sequence>(_ values: S) where S.Element == Value {
        self.init()
        for v in values { append(v) }
    }

    mutating func reserveCapacity(_ n: Int) {
        switch kind {
        case .integer, .bool: ints.reserveCapacity(n)
        case .double, .date: doubles.reserveCapacity(n)
        case .string: strings.reserveCapacity(n)
        case .value: values.reserveCapacity(n)
        }
    }

    /// Removes every row, keeping the kind and the storage (a buffer refilled chunk by chunk).
    mutating func removeAll() {
        ints.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        strings.removeAll()
        values.removeAll(keepingCapacity: true)
        nulls.removeAll(keepingCapacity: true)
        count = 0
    }

    static func kind(of v: Value) -> Kind? {
        switch v {
        case .null: return nil
        case .integer: return .integer
        case .bool: return .bool
        case .double: return .double
        case .date: return .date
        case .string: return .string
        default: return .value
        }
    }

    var hasNulls: Bool { !nulls.isEmpty }

    func isNull(_ i: Int) -> Bool { !nulls.isEmpty && nulls[i] }

    /// Row `i` as a block word: an integer or boolean's value, a double or date's bit
    /// pattern (the column must be of one of those kinds; see ``ResultsBlock``).
    @inline(__always)
    func word(at i: Int) -> Int64 {
        switch kind {
        case .integer, .bool: return ints[i]
        case .double, .date: return Int64(bitPattern: doubles[i].bitPattern)
        case .string, .value: preconditionFailure("a \(kind) column has no words")
        }
    }

    /// The value of row `i`.
    func value(at i: Int) -> Value {
        if isNull(i) { return .null }
        switch kind {
        case .integer: return .integer(ints[i])
        case .bool: return .bool(ints[i] != 0)
        case .double: return .double(doubles[i])
        case .date: return .date(Date(timeIntervalSinceReferenceDate: doubles[i]))
        case .string: return .string(strings.string(at: i))
        case .value: return values[i]
        }
    }

    /// Appends `v`, changing the column's kind if needed (a column of `nil`s takes any kind;
    /// a mismatch otherwise turns the column into plain values).
    mutating func append(_ v: Value) {
        if case .null = v {
            appendNull()
            return
        }
        if let k = Self.kind(of: v), k != kind {
            if nulls.count == count && !nulls.contains(false) { rekind(k) } else { demote() }
        }
        if !nulls.isEmpty { nulls.append(false) }
        count += 1
        switch v {
        case .integer(let i) where kind == .integer: ints.append(i)
        case .bool(let b) where kind == .bool: ints.append(b ? 1 : 0)
        case .double(let d) where kind == .double: doubles.append(d)
        case .date(let d) where kind == .date: doubles.append(d.timeIntervalSinceReferenceDate)
        case .string(let s) where kind == .string: strings.append(s)
        default: values.append(v)
        }
    }

    /// Appends a non-nil integer (the fetch's fast path for integer keys).
    @inline(__always)
    mutating func appendInteger(_ x: Int64) {
        guard kind == .integer else { append(.integer(x)); return }
        countNonNilRow()
        ints.append(x)
    }

    /// Appends a non-nil double (the fetch's fast path for double keys).
    @inline(__always)
    mutating func appendDouble(_ x: Double) {
        guard kind == .double else { append(.double(x)); return }
        countNonNilRow()
        doubles.append(x)
    }

    /// Appends a non-nil string from its UTF-8 bytes (the fetch's fast path for string keys).
    @inline(__always)
    mutating func appendUTF8(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard kind == .string else { append(.string(String(decoding: utf8, as: UTF8.self))); return }
        countNonNilRow()
        strings.append(utf8: utf8)
    }

    /// Counts a new non-nil row (its value appended by the caller).
    @inline(__always)
    private mutating func countNonNilRow() {
        if !nulls.isEmpty { nulls.append(false) }
        count += 1
    }

    mutating func appendNull() {
        if nulls.isEmpty { nulls = [Bool](repeating: false, count: count) }
        nulls.append(true)
        count += 1
        switch kind {
        case .integer, .bool: ints.append(0)
        case .double, .date: doubles.append(0)
        case .string: strings.append("")
        case .value: values.append(.null)
        }
    }

    /// Inserts `v` before row `i` (in place: one move of the rows after it).
    mutating func insert(_ v: Value, at i: Int) {
        if case .null = v {
            if nulls.isEmpty { nulls = [Bool](repeating: false, count: count) }
            nulls.insert(true, at: i)
            count += 1
            switch kind {
            case .integer, .bool: ints.insert(0, at: i)
            case .double, .date: doubles.insert(0, at: i)
            case .string: strings.insert("", at: i)
            case .value: values.insert(.null, at: i)
            }
            return
        }
        if let k = Self.kind(of: v), k != kind {
            if nulls.count == count && !nulls.contains(false) { rekind(k) } else { demote() }
        }
        if !nulls.isEmpty { nulls.insert(false, at: i) }
        count += 1
        switch v {
        case .integer(let x) where kind == .integer: ints.insert(x, at: i)
        case .bool(let b) where kind == .bool: ints.insert(b ? 1 : 0, at: i)
        case .double(let d) where kind == .double: doubles.insert(d, at: i)
        case .date(let d) where kind == .date: doubles.insert(d.timeIntervalSinceReferenceDate, at: i)
        case .string(let x) where kind == .string: strings.insert(x, at: i)
        default: values.insert(v, at: i)
        }
    }

    /// Overwrites row `i` with `v` (in place when the kinds agree).
    mutating func set(_ v: Value, at i: Int) {
        if case .null = v {
            if nulls.isEmpty { nulls = [Bool](repeating: false, count: count) }
            nulls[i] = true
            return
        }
        if let k = Self.kind(of: v), k != kind {
            if nulls.count == count && !nulls.contains(false) { rekind(k) } else { demote() }
        }
        if !nulls.isEmpty { nulls[i] = false }
        switch v {
        case .integer(let x) where kind == .integer: ints[i] = x
        case .bool(let b) where kind == .bool: ints[i] = b ? 1 : 0
        case .double(let d) where kind == .double: doubles[i] = d
        case .date(let d) where kind == .date: doubles[i] = d.timeIntervalSinceReferenceDate
        case .string(let x) where kind == .string: strings.set(x, at: i)
        default: values[i] = v
        }
    }

    /// Removes row `i` (in place).
    mutating func remove(at i: Int) {
        if !nulls.isEmpty { nulls.remove(at: i) }
        count -= 1
        switch kind {
        case .integer, .bool: ints.remove(at: i)
        case .double, .date: doubles.remove(at: i)
        case .string: strings.remove(at: i)
        case .value: values.remove(at: i)
        }
    }

    /// Every row is nil: switch to `kind` with placeholders.
    private mutating func rekind(_ k: Kind) {
        let n = count, flags = nulls
        self = KeyColumn(kind: k)
        for _ in 0..<n { appendNull() }
        nulls = flags
    }

    /// Turns the column into plain values.
    private mutating func demote() {
        guard kind != .value else { return }
        let all = (0..<count).map(value(at:))
        self = KeyColumn(kind: .value)
        values = all
        count = all.count
        nulls = []
    }

    /// Appends rows `range` of `other`.
    mutating func append(contentsOf other: KeyColumn, range: Range<Int>) {
        guard !range.isEmpty else { return }
        if other.kind != kind {
            if count == 0 {
                self = KeyColumn(kind: other.kind)
            } else if other.kind != .value || kind != .value {
                for i in range { append(other.value(at: i)) }
                return
            }
        }
        if other.hasNulls {
            if nulls.isEmpty { nulls = [Bool](repeating: false, count: count) }
            nulls.append(contentsOf: other.nulls[range])
        } else if !nulls.isEmpty {
            nulls.append(contentsOf: repeatElement(false, count: range.count))
        }
        count += range.count
        switch kind {
        case .integer, .bool: ints.append(contentsOf: other.ints[range])
        case .double, .date: doubles.append(contentsOf: other.doubles[range])
        case .string: for i in range { strings.append(rowOf: other.strings, i) }
        case .value: values.append(contentsOf: other.values[range])
        }
    }

    /// Rows `range` as a column of their own.
    func slice(_ range: Range<Int>) -> KeyColumn {
        var c = KeyColumn(kind: kind)
        c.reserveCapacity(range.count)
        c.append(contentsOf: self, range: range)
        return c
    }

    /// ``SortKey/compare(_:_:)`` of row `i` with `v` (direction not applied).
    @inline(__always)
    func compare(_ i: Int, _ v: Value, key: SortKey) -> Int {
        if !nulls.isEmpty && nulls[i] {
            if case .null = v { return 0 }
            return -1
        }
        switch (kind, v) {
        case (.integer, .integer(let y)):
            let x = ints[i]
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.bool, .bool(let b)):
            let x = ints[i], y: Int64 = b ? 1 : 0
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.double, .double(let y)):
            let x = doubles[i]
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.date, .date(let d)):
            let x = doubles[i], y = d.timeIntervalSinceReferenceDate
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.string, .string(let y)) where key.comparison == .binary:
            return strings.compareBinary(i, y)
        case (.value, _):
            // Plain values hold their own nils (a demoted column keeps no flags).
            return key.compare(values[i], v)
        case (_, .null):
            return 1
        default:
            return key.compare(value(at: i), v)
        }
    }

    /// For an integer column without `nil`s: the rows of `range` holding `y`, as the range
    /// between the last row that sorts before it and the first that sorts after it (rows are
    /// in `ascending` or descending order). `nil` for any other column.
    func equalRange(of y: Int64, in range: Range<Int>, ascending: Bool) -> Range<Int>? {
        guard kind == .integer, nulls.isEmpty else { return nil }
        return ints.withUnsafeBufferPointer { xs -> Range<Int> in
            func bound(_ before: (Int64) -> Bool, _ low: Int) -> Int {
                var l = low, h = range.upperBound
                while l < h { let m = (l + h) / 2; if before(xs[m]) { l = m + 1 } else { h = m } }
                return l
            }
            let lower = ascending ? bound({ $0 < y }, range.lowerBound) : bound({ $0 > y }, range.lowerBound)
            let upper = ascending ? bound({ $0 <= y }, lower) : bound({ $0 >= y }, lower)
            return lower..<upper
        }
    }

    /// Whether row `i` holds `v` (`==` on ``Value``).
    @inline(__always)
    func holds(_ v: Value, at i: Int) -> Bool {
        if isNull(i) { if case .null = v { return true } else { return false } }
        switch (kind, v) {
        case (.integer, .integer(let y)): return ints[i] == y
        case (.bool, .bool(let b)): return ints[i] == (b ? 1 : 0)
        case (.double, .double(let y)): return doubles[i] == y
        case (.date, .date(let d)): return doubles[i] == d.timeIntervalSinceReferenceDate
        case (.string, .string(let y)): return strings.holds(y, at: i)
        case (.value, _): return values[i] == v
        default: return false
        }
    }

    /// Whether row `i` and row `j` of `other` hold the same value (`==` on ``Value``).
    func same(_ i: Int, as other: KeyColumn, _ j: Int) -> Bool {
        let a = isNull(i), b = other.isNull(j)
        if a || b { return a == b }
        guard kind == other.kind else { return value(at: i) == other.value(at: j) }
        switch kind {
        case .integer, .bool: return ints[i] == other.ints[j]
        case .double, .date: return doubles[i] == other.doubles[j]
        case .string: return strings.same(i, as: other.strings, j)
        case .value: return values[i] == other.values[j]
        }
    }

    /// A column of `sources`, in order: rows of `self` and values of `additions`.
    func rebuilt(from sources: [SortedResults.RowSource], additions: [Value]) -> KeyColumn {
        var column = KeyColumn(kind: kind)
        column.reserveCapacity(sources.count)
        for source in sources {
            switch source {
            case .kept(let row): column.appendRow(of: self, row)
            case .added(let a): column.append(additions[a])
            }
        }
        return column
    }

    /// Appends row `i` of `other` (same kind, fast path).
    @inline(__always)
    mutating func appendRow(of other: KeyColumn, _ i: Int) {
        guard other.kind == kind else { append(other.value(at: i)); return }
        if other.isNull(i) { appendNull(); return }
        if !nulls.isEmpty { nulls.append(false) }
        count += 1
        switch kind {
        case .integer, .bool: ints.append(other.ints[i])
        case .double, .date: doubles.append(other.doubles[i])
        case .string: strings.append(rowOf: other.strings, i)
        case .value: values.append(other.values[i])
        }
    }
}
