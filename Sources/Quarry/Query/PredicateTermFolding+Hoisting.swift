extension PredicateTermFolding {
    /// One key path's lower (or upper) bounds of one kind of constant, with the same options.
    private struct BoundKey: Hashable {
        var keyPath: String
        var options: ComparisonOptions
        var lower: Bool
        var kind: ConstantKind
    }

    /// In an `AND` of `OR`s that each hold a bound on one key path,
    /// `(price > 3 OR p) AND (price > 7 OR q)` becomes `price > 7 OR ((price > 7 OR q) AND (price > 3 OR p))`:
    /// the tightest bound implies every one of those `OR`s, so an object past it is decided by
    /// one comparison, and the others meet the tightest bounds first, where an object short of
    /// them fails soonest. A 5,000-term `(price > i OR name BEGINSWITH 'A…')` chain costs a
    /// few comparisons per object instead of one per term below the object's price.
    static func hoistingBounds(_ terms: [ObjectPredicate]) -> [ObjectPredicate] {
        guard terms.count > 1 else { return terms }
        var members: [BoundKey: [(index: Int, bound: PredicateComparison)]] = [:]
        for (index, term) in terms.enumerated() {
            guard case .or(let parts) = term else { continue }
            var keys = Set<BoundKey>()
            for part in parts {
                guard case .comparison(let c) = part, c.modifier == .direct, case .keyPath(let path) = c.lhs,
                      case .constant(let v) = c.rhs, let kind = kind(of: v) else { continue }
                let lower: Bool
                switch c.op {
                case .greater, .greaterOrEqual: lower = true
                case .less, .lessOrEqual: lower = false
                default: continue
                }
                let key = BoundKey(keyPath: path, options: c.options, lower: lower, kind: kind)
                // An OR holds one bound per key once its comparisons are folded; take the first.
                if keys.insert(key).inserted { members[key, default: []].append((index, c)) }
            }
        }
        // The key shared by the most ORs (ties: the one met first, so the result is stable).
        guard let (key, chosen) = members.filter({ $0.value.count > 1 })
            .max(by: { $0.value.count < $1.value.count || ($0.value.count == $1.value.count && $0.value[0].index > $1.value[0].index) })
        else { return terms }
        // Tightest first; equally tight keep their order.
        let ordered = chosen.enumerated().sorted { a, b in
            if isBetter(a.element.bound, than: b.element.bound, lower: key.lower, tightest: true, options: key.options) { return true }
            if isBetter(b.element.bound, than: a.element.bound, lower: key.lower, tightest: true, options: key.options) { return false }
            return a.offset < b.offset
        }.map(\.element)
        let hoisted = ObjectPredicate.or([.comparison(ordered[0].bound), .and(ordered.map { terms[$0.index] })])
        let replaced = Set(chosen.map(\.index))
        var result: [ObjectPredicate] = []
        for (index, term) in terms.enumerated() {
            if index == chosen[0].index { result.append(hoisted) } else if !replaced.contains(index) { result.append(term) }
        }
        return result
    }
}
