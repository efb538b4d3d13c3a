import Foundation

extension ResultsBlock {
    /// The value in `slot` of column `k` (not boxed, and not a string the chunk keeps: see
    /// ``holdsOverflowString(_:_:)``).
    func value(_ k: Int, _ slot: BlockSlot) -> Value {
        if isNull(k, slot) { return .null }
        let w = word(k, slot)
        switch mode(k) {
        case .integer: return .integer(w)
        case .bool: return .bool(w != 0)
        case .double: return .double(Double(bitPattern: UInt64(bitPattern: w)))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: w))))
        case .string: return .string(StringWord.string(ofInline: UInt64(bitPattern: w)))
        case .boxed: preconditionFailure("column \(k) is boxed")
        }
    }

    /// Whether `slot` of string column `k` holds only the first bytes of a longer string
    /// (its text is in the chunk's overflow column).
    @inline(__always)
    func holdsOverflowString(_ k: Int, _ slot: BlockSlot) -> Bool {
        mode(k) == .string && !isNull(k, slot) && !StringWord.isInline(UInt64(bitPattern: word(k, slot)))
    }

    /// ``SortKey/compare(_:_:)`` of row `row` of column `k` (not boxed) with `v` (direction
    /// not applied); the same answers as ``KeyColumn/compare(_:_:key:)``. `nil` when the
    /// block cannot tell: the row holds a string whose text the chunk keeps, and its first
    /// bytes do not decide.
    @inline(__always)
    func compare(_ k: Int, row: Int, _ v: Value, key: SortKey) -> Int? {
        let slot = slot(ofRow: row)
        if isNull(k, slot) {
            if case .null = v { return 0 }
            return -1
        }
        let w = word(k, slot)
        switch (mode(k), v) {
        case (.integer, .integer(let y)):
            return w == y ? 0 : (w < y ? -1 : 1)
        case (.bool, .bool(let b)):
            let y: Int64 = b ? 1 : 0
            return w == y ? 0 : (w < y ? -1 : 1)
        case (.double, .double(let y)):
            let x = Double(bitPattern: UInt64(bitPattern: w))
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.date, .date(let d)):
            let x = Double(bitPattern: UInt64(bitPattern: w)), y = d.timeIntervalSinceReferenceDate
            return x == y ? 0 : (x < y ? -1 : 1)
        case (.string, .string(let y)) where key.comparison == .binary:
            let x = UInt64(bitPattern: w), yw = StringWord.make(y)
            if x != yw { return x < yw ? -1 : 1 }
            return StringWord.isInline(x) ? 0 : nil
        case (_, .null):
            return 1
        case (.string, _) where !StringWord.isInline(UInt64(bitPattern: w)):
            return nil
        default:
            return key.compare(value(k, slot), v)
        }
    }

    /// Whether row `row` of column `k` holds `v` (`==` on ``Value``); `nil` when the block
    /// cannot tell (a boxed column, or a string whose text the chunk keeps and whose first
    /// bytes do not decide).
    @inline(__always)
    func holds(_ k: Int, _ v: Value, row: Int) -> Bool? {
        guard mode(k) != .boxed else { return nil }
        let slot = slot(ofRow: row)
        if isNull(k, slot) { if case .null = v { return true } else { return false } }
        let w = word(k, slot)
        switch (mode(k), v) {
        case (.integer, .integer(let y)): return w == y
        case (.bool, .bool(let b)): return w == (b ? 1 : 0)
        case (.double, .double(let y)): return Double(bitPattern: UInt64(bitPattern: w)) == y
        case (.date, .date(let d)): return Double(bitPattern: UInt64(bitPattern: w)) == d.timeIntervalSinceReferenceDate
        case (.string, .string(let y)):
            let x = UInt64(bitPattern: w), yw = StringWord.make(y)
            guard StringWord.isInline(x) else { return StringWord.differsFromLong(x, yw) ? false : nil }
            if x == yw { return true }
            // `==` on String is canonical equivalence: other bytes may still be equal text,
            // unless both are ASCII.
            return !(StringWord.isASCII(x) && y.utf8.allSatisfy { $0 < 0x80 }) && StringWord.string(ofInline: x) == y
        default: return false
        }
    }

    /// Stores `v` in `slot` of column `k`; `false` (nothing stored) when the column is boxed,
    /// `v` is of another kind than the column's, or `v` is a string longer than a word holds
    /// (the chunk stores it: see ``ResultsChunk``).
    @inline(__always)
    func store(_ k: Int, _ v: Value, in slot: BlockSlot) -> Bool {
        let w: Int64
        switch (mode(k), v) {
        case (.boxed, _): return false
        case (_, .null):
            setNull(k, slot, true)
            setWord(k, slot, 0)
            return true
        case (.integer, .integer(let y)): w = y
        case (.bool, .bool(let b)): w = b ? 1 : 0
        case (.double, .double(let y)): w = Int64(bitPattern: y.bitPattern)
        case (.date, .date(let d)): w = Int64(bitPattern: d.timeIntervalSinceReferenceDate.bitPattern)
        case (.string, .string(let y)):
            let word = StringWord.make(y)
            guard StringWord.isInline(word) else { return false }
            w = Int64(bitPattern: word)
        default: return false
        }
        setWord(k, slot, w)
        setNull(k, slot, false)
        return true
    }

    /// Whether row `i` of column `k` and row `j` of `other`'s hold the same value (both typed
    /// alike, not boxed) as their words tell; `nil` when the words cannot tell.
    func sameWord(_ k: Int, row i: Int, as other: ResultsBlock, row j: Int) -> Bool? {
        guard mode(k) != .boxed, other.mode(k) != .boxed else { return nil }
        let s = slot(ofRow: i), t = other.slot(ofRow: j)
        let a = isNull(k, s), b = other.isNull(k, t)
        if a || b { return a == b }
        guard mode(k) == other.mode(k) else { return nil }
        let x = word(k, s), y = other.word(k, t)
        guard mode(k) == .string else { return x == y }
        let xw = UInt64(bitPattern: x), yw = UInt64(bitPattern: y)
        guard StringWord.isInline(xw) && StringWord.isInline(yw) else { return nil }
        // Other bytes may still be canonically equivalent text, unless both are ASCII.
        return xw == yw ? true : (StringWord.isASCII(xw) && StringWord.isASCII(yw) ? false : nil)
    }

    /// For an integer column without nils: the rows of `range` holding `y`, as the range
    /// between the last row that sorts before it and the first that sorts after it.
    @inline(__always)
    func equalRange(_ k: Int, of y: Int64, in range: Range<Int>, ascending: Bool) -> Range<Int>? {
        guard mode(k) == .integer, !mayHoldNulls(k) else { return nil }
        let words = words(k)
        func word(_ row: Int) -> Int64 { words[slot(ofRow: row).index] }
        func bound(_ before: (Int64) -> Bool, _ low: Int) -> Int {
            var l = low, h = range.upperBound
            while l < h { let m = (l + h) / 2; if before(word(m)) { l = m + 1 } else { h = m } }
            return l
        }
        let lower = ascending ? bound({ $0 < y }, range.lowerBound) : bound({ $0 > y }, range.lowerBound)
        // The equal keys are usually few: step over them from the lower bound first.
        var upper = lower
        while upper < range.upperBound && upper < lower + 2 && word(upper) == y { upper += 1 }
        guard upper == lower + 2 else { return lower..<upper }
        upper = ascending ? bound({ $0 <= y }, upper) : bound({ $0 >= y }, upper)
        return lower..<upper
    }
}
