/// A predicate over result dictionaries (``FetchRequest/havingPredicate``): each key path names a
/// column of the result (a group key such as `sector.name`, or an aggregate such as
/// `` `count()` ``), compared with constants by `==`, `!=`, `<`, `<=`, `>`, `>=`, `IN` and
/// `BETWEEN` (with `[c]`/`[d]` for strings), joined by `AND`, `OR` and `NOT`.
struct ResultRowFilter {
    let predicate: ObjectPredicate

    /// Checks that every key the predicate names is a column of the result and every comparison
    /// is one a result row can answer.
    /// - Throws: ``QueryError`` naming the key or operator at fault.
    init(_ predicate: ObjectPredicate, columns: Set<String>) throws {
        func check(_ p: ObjectPredicate) throws {
            switch p {
            case .truePredicate, .falsePredicate: return
            case .and(let ps), .or(let ps): try ps.forEach(check)
            case .not(let q): try check(q)
            case .comparison(let c):
                for side in [c.lhs, c.rhs] {
                    if case .subquery = side {
                        throw QueryError.invalidOperand("having: a SUBQUERY reads objects, not result rows: filter with it in the request's predicate")
                    }
                }
                guard case .keyPath(let key) = c.lhs, columns.contains(key) else {
                    throw QueryError.invalidOperand("having: the left side must be a column of the result (\(columns.sorted().joined(separator: ", "))), not \(PredicateFormatter.format(c.lhs))")
                }
                guard c.modifier == .direct else { throw QueryError.invalidOperand("having: '\(key)' is one value: no ANY, ALL or NONE") }
                switch c.op {
                case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .in, .between: break
                default: throw QueryError.invalidOperand("having: \(c.op.rawValue) is not supported (==, !=, <, <=, >, >=, IN, BETWEEN)")
                }
                switch c.rhs {
                case .constant: break
                case .list(let items) where items.allSatisfy({ if case .constant = $0 { return true } else { return false } }): break
                default: throw QueryError.invalidOperand("having: '\(key)' is compared with a constant or a list of constants")
                }
            }
        }
        try check(predicate)
        self.predicate = predicate
    }

    /// Whether `row` passes. A comparison with `nil` holds only for `==`/`!=` (as in the
    /// predicate language).
    func evaluate(_ row: [String: Value]) -> Bool { evaluate(predicate, row) }

    private func evaluate(_ p: ObjectPredicate, _ row: [String: Value]) -> Bool {
        switch p {
        case .truePredicate: return true
        case .falsePredicate: return false
        case .and(let ps): return ps.allSatisfy { evaluate($0, row) }
        case .or(let ps): return ps.contains { evaluate($0, row) }
        case .not(let q): return !evaluate(q, row)
        case .comparison(let c):
            guard case .keyPath(let key) = c.lhs else { return false }
            let value = row[key] ?? .null
            func constant(_ o: Operand) -> Value { if case .constant(let v) = o { return v }; return .null }
            func compare(_ other: Value) -> Int? {
                if value.isNull || other.isNull { return nil }
                return ValueOrdering.compare(value, other, options: c.options)
            }
            switch c.op {
            case .equal: return value.isNull ? constant(c.rhs).isNull : compare(constant(c.rhs)) == 0
            case .notEqual: return value.isNull ? !constant(c.rhs).isNull : compare(constant(c.rhs)).map { $0 != 0 } ?? true
            case .less: return compare(constant(c.rhs)).map { $0 < 0 } ?? false
            case .lessOrEqual: return compare(constant(c.rhs)).map { $0 <= 0 } ?? false
            case .greater: return compare(constant(c.rhs)).map { $0 > 0 } ?? false
            case .greaterOrEqual: return compare(constant(c.rhs)).map { $0 >= 0 } ?? false
            case .in:
                guard case .list(let items) = c.rhs else { return compare(constant(c.rhs)) == 0 }
                return items.contains { compare(constant($0)) == 0 }
            case .between:
                guard case .list(let items) = c.rhs, items.count == 2,
                      let low = compare(constant(items[0])), let high = compare(constant(items[1])) else { return false }
                return low >= 0 && high <= 0
            default: return false
            }
        }
    }
}
