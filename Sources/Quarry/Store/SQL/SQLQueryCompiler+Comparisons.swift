extension SQLQueryCompiler {
    /// One comparison `l op r`; every form is true or false. Operands of different kinds are
    /// compared here, by ``ValueOrdering``'s order of kinds, unless the engine does it itself
    /// (``SQLDialect/comparesAcrossKinds``).
    mutating func test(_ l: Term, _ op: ComparisonOperator, _ r: [Term], _ options: ComparisonOptions) throws -> Fragment {
        let lk = l.kind
        let byKind = !Dialect.comparesAcrossKinds
        /// Whether comparing with a value of kind `rk` is decided by kinds alone.
        func mixed(_ rk: Term.Kind) -> Bool { byKind && lk != .null && rk != .null && lk != rk }
        let no = Fragment(Dialect.booleanLiteral(false))
        switch op {
        case .equal, .notEqual:
            let negate = op == .notEqual
            if mixed(r[0].kind) { return Fragment(Dialect.booleanLiteral(negate)) }
            if case .constant(.null) = r[0], case .column = l {
                // The same test, in the form an index on the column answers.
                return "(\(dialect.value(l)) IS \(negate ? "NOT " : "")NULL)"
            }
            return equality(dialect.comparable(l, options: options), r[0], options, negated: negate)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let rk = r[0].kind
            if mixed(rk) {
                guard Self.holds(op, lk.rawValue < rk.rawValue ? -1 : 1) else { return no }
                return bothPresent(l, r[0])
            }
            if outcomeCountsOnlyWhenTrue, options.isEmpty, case .column(let column) = l, case .constant(let value) = r[0],
               let indexable = dialect.indexableOrdering(column, op, value) {
                return indexable
            }
            let left = dialect.comparable(l, options: options)
            let right = dialect.comparable(r[0], options: options)
            return "COALESCE(\(left) \(op.rawValue) \(right), \(Dialect.booleanLiteral(false)))"
        case .in:
            let items = r.filter { !mixed($0.kind) }
            guard !items.isEmpty else { return no }
            if items.count > Self.inlineListLimit, let values = Self.constants(items),
               let membership = dialect.membership(of: l, in: values, options: options) {
                return membership
            }
            let left = dialect.comparable(l, options: options)
            // A short list, or one a long form cannot carry (binary data, NaN…): one equality
            // per item, grouped so any length stays within SQLite's expression depth.
            return Fragment.balanced(items.map { equality(left, $0, options, negated: false) }, glue: " OR ")
        case .between:
            guard r.count == 2 else { throw QueryError.invalidOperand("BETWEEN needs a list of two values, like {1, 10}") }
            let (ak, bk) = (r[0].kind, r[1].kind)
            if mixed(ak) || mixed(bk) { return mixedBetween(l, r, options) }
            let left = dialect.comparable(l, options: options)
            let low = dialect.comparable(r[0], options: options)
            let high = dialect.comparable(r[1], options: options)
            return "COALESCE(\(left) >= \(low) AND \(left) <= \(high), \(Dialect.booleanLiteral(false)))"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            if byKind && (lk != .text || r[0].kind != .text) { return no }
            return try dialect.stringTest(op, l, r[0], options: options)
        }
    }

    /// `left` null-safely equal (or not, `negated`) to `right` folded by `options`.
    private mutating func equality(_ left: Fragment, _ right: Term, _ options: ComparisonOptions, negated: Bool) -> Fragment {
        let r = dialect.comparable(right, options: options)
        return "(\(left) \(Dialect.nullSafeEquality(negated: negated)) \(r))"
    }

    /// Whether neither `a` nor `b` is `NULL`: an ordering between values of different kinds
    /// that holds whenever both are present.
    private mutating func bothPresent(_ a: Term, _ b: Term) -> Fragment {
        let x = dialect.value(a), y = dialect.value(b)
        return "(\(x) IS NOT NULL AND \(y) IS NOT NULL)"
    }

    /// `l BETWEEN r[0] AND r[1]` when a bound is of another kind than `l`: that side is
    /// decided by kinds, the other compared.
    private mutating func mixedBetween(_ l: Term, _ r: [Term], _ options: ComparisonOptions) -> Fragment {
        let lk = l.kind
        func side(_ bound: Term, _ op: ComparisonOperator) -> Fragment {
            let bk = bound.kind
            if lk != .null && bk != .null && lk != bk {
                return Fragment(Dialect.booleanLiteral(Self.holds(op, lk.rawValue < bk.rawValue ? -1 : 1)))
            }
            let left = dialect.comparable(l, options: options), right = dialect.comparable(bound, options: options)
            return "COALESCE(\(left) \(op.rawValue) \(right), \(Dialect.booleanLiteral(false)))"
        }
        let present = dialect.value(l)
        let low = side(r[0], .greaterOrEqual)
        let high = side(r[1], .lessOrEqual)
        return "(\(present) IS NOT NULL AND \(low) AND \(high))"
    }

    /// The constants of `items`, or `nil` when one is not a constant.
    private static func constants(_ items: [Term]) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for item in items {
            guard case .constant(let v) = item else { return nil }
            values.append(v)
        }
        return values
    }

    /// Whether `op` holds for a comparison result `c` (negative, zero, positive).
    static func holds(_ op: ComparisonOperator, _ c: Int) -> Bool {
        switch op {
        case .less: return c < 0
        case .lessOrEqual: return c <= 0
        case .greater: return c > 0
        case .greaterOrEqual: return c >= 0
        default: return false
        }
    }
}
