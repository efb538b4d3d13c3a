/// Rewrites a predicate into an equivalent one that every back end evaluates in fewer steps
/// per object: a 5,000-term `price > 0 AND price > 1 AND …` becomes one comparison, a 5,000-term
/// `symbol == 'S0' OR …` one `IN`, 1,000 `ANY quotes.price > i` one `ANY`.
///
/// Each rule is a boolean identity under ``PredicateSemantics`` (and so under the SQL that
/// mirrors it), `nil` and the `[c]`/`[d]` options included:
/// - `AND`/`OR` inside one of the same kind are flattened; `TRUEPREDICATE`/`FALSEPREDICATE`
///   are dropped where neutral and decide the group where absorbing; repeated terms are dropped;
///   `NOT NOT p` is `p`.
/// - Comparisons of one key path, with one quantifier and the same options, against constants
///   are combined (``PredicateTermFolding``): under `OR`, equalities and `IN` lists become one
///   `IN`, lower (or upper) bounds the loosest one and overlapping `BETWEEN`s one; under `AND`,
///   bounds the tightest one and inequalities one `NOT … IN`. `ANY k p OR ANY k q` is
///   `ANY k (p OR q)`, `ALL k p AND ALL k q` is `ALL k (p AND q)` and `NONE k p AND NONE k q`
///   is `NONE k (p OR q)`, so those combine the same way.
/// - A `SUBQUERY`'s predicate is normalized too (it is evaluated once per element).
/// - An `AND` of `OR`s that each bound one key path is led by the tightest of those bounds
///   (``PredicateTermFolding/hoistingBounds(_:)``), which implies them all.
/// - Bounds combine only when their constants are of one kind (all integers, all doubles, all
///   strings, …) and never `nil` or NaN, so which is tightest is the order both back ends use.
///
/// Only which error a `MATCHES` over its step budget raises may differ: combined terms can
/// change which terms a short-circuit evaluates, as SQLite's own planner may.
enum PredicateNormalizer {
    /// The normalized form of `p`. Call after ``ObjectPredicate/checkNesting()``: it recurses.
    static func normalize(_ p: ObjectPredicate) -> ObjectPredicate {
        switch p {
        case .truePredicate, .falsePredicate:
            return p
        case .comparison(var c):
            c.lhs = normalize(c.lhs)
            c.rhs = normalize(c.rhs)
            return .comparison(c)
        case .not(let q):
            switch normalize(q) {
            case .not(let inner): return inner
            case .truePredicate: return .falsePredicate
            case .falsePredicate: return .truePredicate
            case let n: return .not(n)
            }
        case .and(let ps):
            return junction(ps, isAnd: true)
        case .or(let ps):
            return junction(ps, isAnd: false)
        }
    }

    /// `operand` with the predicates of its subqueries normalized.
    private static func normalize(_ operand: Operand) -> Operand {
        switch operand {
        case .subquery(var s):
            s.predicate = normalize(s.predicate)
            return .subquery(s)
        case .list(let items) where items.contains(where: { if case .subquery = $0 { return true } else { return false } }):
            return .list(items.map(normalize))
        case .keyPath, .constant, .variable, .list:
            return operand
        }
    }

    /// An `AND` (or `OR`) of `parts`, flattened, deduplicated and with comparisons combined.
    private static func junction(_ parts: [ObjectPredicate], isAnd: Bool) -> ObjectPredicate {
        var terms: [ObjectPredicate] = []
        terms.reserveCapacity(parts.count)
        var seen = Set<ObjectPredicate>()
        func add(_ term: ObjectPredicate) -> Bool {
            switch (term, isAnd) {
            case (.truePredicate, true), (.falsePredicate, false): return true
            case (.falsePredicate, true), (.truePredicate, false): return false
            case (.and(let inner), true), (.or(let inner), false):
                for t in inner where !add(t) { return false }
                return true
            default:
                if seen.insert(term).inserted { terms.append(term) }
                return true
            }
        }
        for part in parts where !add(normalize(part)) {
            return isAnd ? .falsePredicate : .truePredicate
        }
        terms = PredicateTermFolding.fold(terms, isAnd: isAnd)
        if isAnd { terms = PredicateTermFolding.hoistingBounds(terms) }
        switch terms.count {
        case 0: return isAnd ? .truePredicate : .falsePredicate
        case 1: return terms[0]
        default: return isAnd ? .and(terms) : .or(terms)
        }
    }
}

extension ObjectPredicate {
    /// An equivalent predicate that is cheaper to evaluate (see ``PredicateNormalizer``); both
    /// back ends compile this form. Call after ``checkNesting()``.
    var normalized: ObjectPredicate { PredicateNormalizer.normalize(self) }
}
