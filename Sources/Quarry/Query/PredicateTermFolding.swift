/// Combines the comparisons of one `AND` or `OR` that test one key path against constants (see
/// ``PredicateNormalizer`` for the identities it relies on). The combined term takes the place
/// of the first term it replaces; every other term keeps its place.
enum PredicateTermFolding {
    /// Comparisons that may combine: same quantifier, key path and options.
    private struct Group: Hashable {
        var modifier: ComparisonModifier
        var keyPath: String
        var options: ComparisonOptions
    }

    /// One family of terms within a group that combines into one (or, for `BETWEEN`s, a few).
    private enum Family: Hashable {
        case equality
        case inequality
        case lower(ConstantKind)
        case upper(ConstantKind)
        case between(ConstantKind)
    }

    /// The kinds of constants whose order is the same in both back ends and total.
    enum ConstantKind: Hashable {
        case integer, double, string, bool, date, uuid, uri
    }

    /// `terms` (already flattened and normalized) with the comparisons of each family combined.
    static func fold(_ terms: [ObjectPredicate], isAnd: Bool) -> [ObjectPredicate] {
        guard terms.count > 1 else { return terms }
        var members: [Group: [Family: [Int]]] = [:]
        for (index, term) in terms.enumerated() {
            guard case .comparison(let c) = term, case .keyPath(let path) = c.lhs,
                  let innerOr = innerIsOr(c.modifier, isAnd: isAnd),
                  let family = family(of: c, innerOr: innerOr) else { continue }
            members[Group(modifier: c.modifier, keyPath: path, options: c.options), default: [:]][family, default: []].append(index)
        }
        var slots: [[ObjectPredicate]] = terms.map { [$0] }
        for (group, families) in members {
            for (family, indices) in families where indices.count > 1 {
                let comparisons = indices.map { index -> PredicateComparison in
                    guard case .comparison(let c) = terms[index] else { preconditionFailure("only comparisons are grouped") }
                    return c
                }
                for index in indices { slots[index] = [] }
                slots[indices[0]] = combine(comparisons, family: family, group: group,
                                            innerOr: innerIsOr(group.modifier, isAnd: isAnd) ?? !isAnd)
            }
        }
        return slots.flatMap { $0 }
    }

    /// How the tests under a quantifier combine when their comparisons are joined by `AND`
    /// (`isAnd`) or `OR`: `true` for OR, `false` for AND, `nil` when they do not combine
    /// (`ANY p AND ANY q` is not `ANY (p AND q)`).
    private static func innerIsOr(_ modifier: ComparisonModifier, isAnd: Bool) -> Bool? {
        switch (modifier, isAnd) {
        case (.direct, _): return !isAnd
        case (.any, false): return true
        case (.all, true): return false
        case (.none, true): return true
        default: return nil
        }
    }

    /// The family `c` combines in, or `nil` when it combines with nothing.
    private static func family(of c: PredicateComparison, innerOr: Bool) -> Family? {
        switch (c.op, c.rhs, innerOr) {
        case (.equal, .constant, true): return .equality
        case (.in, .list(let items), true) where items.allSatisfy(isConstant): return .equality
        case (.notEqual, .constant, false) where c.modifier == .direct: return .inequality
        case (.greater, .constant(let v), _), (.greaterOrEqual, .constant(let v), _): return kind(of: v).map(Family.lower)
        case (.less, .constant(let v), _), (.lessOrEqual, .constant(let v), _): return kind(of: v).map(Family.upper)
        case (.between, .list(let bounds), true) where bounds.count == 2:
            guard case .constant(let low) = bounds[0], case .constant(let high) = bounds[1],
                  let k = kind(of: low), kind(of: high) == k else { return nil }
            return .between(k)
        default: return nil
        }
    }

    private static func isConstant(_ operand: Operand) -> Bool {
        if case .constant = operand { return true }
        return false
    }

    static func kind(of v: Value) -> ConstantKind? {
        switch v {
        case .integer: return .integer
        case .double(let d): return d.isNaN ? nil : .double
        case .string: return .string
        case .bool: return .bool
        case .date(let d): return d.timeIntervalSinceReferenceDate.isNaN ? nil : .date
        case .uuid: return .uuid
        case .uri: return .uri
        case .null, .decimal, .data, .json: return nil
        }
    }

    /// The terms that replace `comparisons` (all of `family`, in `group`).
    private static func combine(_ comparisons: [PredicateComparison], family: Family, group: Group,
                                innerOr: Bool) -> [ObjectPredicate] {
        let first = comparisons[0]
        switch family {
        case .equality, .inequality:
            var values: [Operand] = []
            var seen = Set<Value>()
            var itemColumns: [Int] = []
            for c in comparisons {
                let items: [Operand]
                if case .list(let list) = c.rhs { items = list } else { items = [c.rhs] }
                let columns = c.columns.map { $0.rhsItems.isEmpty ? [$0.rhs] : $0.rhsItems } ?? []
                for (n, item) in items.enumerated() {
                    guard case .constant(let v) = item, seen.insert(v).inserted else { continue }
                    values.append(item)
                    if n < columns.count { itemColumns.append(columns[n]) }
                }
            }
            var combined = PredicateComparison(first.lhs, .in, .list(values), modifier: first.modifier, options: first.options)
            combined.columns = first.columns.map {
                SourceColumns(lhs: $0.lhs, rhs: $0.rhs, rhsItems: itemColumns.count == values.count ? itemColumns : [],
                              modifier: $0.modifier)
            }
            return family == .inequality ? [.not(.comparison(combined))] : [.comparison(combined)]
        case .lower, .upper:
            // Under AND the tightest bound implies the others; under OR the loosest is implied by them.
            let isLower: Bool = { if case .lower = family { return true } else { return false } }()
            var best = first
            for c in comparisons.dropFirst() where isBetter(c, than: best, lower: isLower, tightest: !innerOr, options: group.options) {
                best = c
            }
            return [.comparison(best)]
        case .between:
            return mergedIntervals(comparisons, options: group.options)
        }
    }

    /// Whether bound `c` should replace `best`: the larger lower bound (or smaller upper bound)
    /// when keeping the tightest, the other way round for the loosest; on equal constants the
    /// strict operator is the tighter.
    static func isBetter(_ c: PredicateComparison, than best: PredicateComparison, lower: Bool,
                                 tightest: Bool, options: ComparisonOptions) -> Bool {
        guard case .constant(let v) = c.rhs, case .constant(let b) = best.rhs else { return false }
        let order = ValueOrdering.compare(v, b, options: options)
        let strict = c.op == .greater || c.op == .less
        let bestStrict = best.op == .greater || best.op == .less
        if order == 0 { return tightest ? (strict && !bestStrict) : (!strict && bestStrict) }
        let tighter = lower ? order > 0 : order < 0
        return tighter == tightest
    }

    /// `BETWEEN`s joined by OR, overlapping ranges merged (`{0, 2}` and `{1, 3}` make `{0, 3}`);
    /// empty ranges (low above high) are kept as they are.
    private static func mergedIntervals(_ comparisons: [PredicateComparison], options: ComparisonOptions) -> [ObjectPredicate] {
        func bounds(_ c: PredicateComparison) -> (Value, Value) {
            guard case .list(let items) = c.rhs, case .constant(let low) = items[0], case .constant(let high) = items[1] else {
                preconditionFailure("only BETWEENs of two constants are grouped")
            }
            return (low, high)
        }
        var empty: [PredicateComparison] = []
        var ranges: [(low: Value, high: Value, source: PredicateComparison)] = []
        for c in comparisons {
            let (low, high) = bounds(c)
            if ValueOrdering.compare(low, high, options: options) > 0 { empty.append(c) } else { ranges.append((low, high, c)) }
        }
        ranges.sort { ValueOrdering.compare($0.low, $1.low, options: options) < 0 }
        var merged: [(low: Value, high: Value, source: PredicateComparison)] = []
        for range in ranges {
            if let last = merged.last, ValueOrdering.compare(range.low, last.high, options: options) <= 0 {
                if ValueOrdering.compare(range.high, last.high, options: options) > 0 { merged[merged.count - 1].high = range.high }
            } else {
                merged.append(range)
            }
        }
        return merged.map { range in
            var c = range.source
            c.rhs = .list([.constant(range.low), .constant(range.high)])
            return .comparison(c)
        } + empty.map { .comparison($0) }
    }
}
