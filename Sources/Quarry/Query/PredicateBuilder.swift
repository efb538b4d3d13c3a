/// The Swift builder for predicates: `PredicateKey("price") > 10 && PredicateKey("sector.name") == "Tech"`.
public struct PredicateKey: Sendable, Hashable {
    /// The key path.
    public let path: String

    /// A key path from the evaluated object.
    public init(_ path: String) { self.path = path }

    private func compare(_ op: ComparisonOperator, _ value: Value, _ options: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), op, .constant(value), options: options))
    }

    /// `key == value`.
    public static func == (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.equal, v) }
    /// `key != value`.
    public static func != (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.notEqual, v) }
    /// `key < value`.
    public static func < (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.less, v) }
    /// `key <= value`.
    public static func <= (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.lessOrEqual, v) }
    /// `key > value`.
    public static func > (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.greater, v) }
    /// `key >= value`.
    public static func >= (k: PredicateKey, v: Value) -> ObjectPredicate { k.compare(.greaterOrEqual, v) }

    /// `key BEGINSWITH[options] prefix`.
    public func beginsWith(_ s: String, _ options: ComparisonOptions = []) -> ObjectPredicate { compare(.beginsWith, .string(s), options) }
    /// `key ENDSWITH[options] suffix`.
    public func endsWith(_ s: String, _ options: ComparisonOptions = []) -> ObjectPredicate { compare(.endsWith, .string(s), options) }
    /// `key CONTAINS[options] part`.
    public func contains(_ s: String, _ options: ComparisonOptions = []) -> ObjectPredicate { compare(.contains, .string(s), options) }
    /// `key LIKE[options] pattern` (`*` and `?` wildcards).
    public func like(_ s: String, _ options: ComparisonOptions = []) -> ObjectPredicate { compare(.like, .string(s), options) }
    /// `key MATCHES[options] regex` (whole string).
    public func matches(_ s: String, _ options: ComparisonOptions = []) -> ObjectPredicate { compare(.matches, .string(s), options) }
    /// `key IN {values}`.
    public func isIn(_ values: [Value]) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), .in, .list(values.map(Operand.constant))))
    }
    /// `key BETWEEN {low, high}`.
    public func between(_ low: Value, _ high: Value) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), .between, .list([.constant(low), .constant(high)])))
    }
    /// `ANY key op value` for a to-many key path.
    public func any(_ op: ComparisonOperator, _ v: Value, _ options: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), op, .constant(v), modifier: .any, options: options))
    }
    /// `ALL key op value`.
    public func all(_ op: ComparisonOperator, _ v: Value, _ options: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), op, .constant(v), modifier: .all, options: options))
    }
    /// `NONE key op value`.
    public func none(_ op: ComparisonOperator, _ v: Value, _ options: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(path), op, .constant(v), modifier: .none, options: options))
    }
}

extension ObjectPredicate {
    /// Both predicates (`AND`).
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case (.and(let a), .and(let b)): return .and(a + b)
        case (.and(let a), _): return .and(a + [rhs])
        default: return .and([lhs, rhs])
        }
    }

    /// Either predicate (`OR`).
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case (.or(let a), .or(let b)): return .or(a + b)
        case (.or(let a), _): return .or(a + [rhs])
        default: return .or([lhs, rhs])
        }
    }

    /// The negation (`NOT`).
    public static prefix func ! (p: ObjectPredicate) -> ObjectPredicate { .not(p) }
}

/// Comparisons of a subquery's value in the Swift builder:
/// `PredicateSubquery("tickers", variable: "t", where: PredicateKey("price") > .integer(100)) > .integer(3)`.
extension PredicateSubquery {
    private func compare(_ op: ComparisonOperator, _ value: Value) -> ObjectPredicate {
        .comparison(PredicateComparison(.subquery(self), op, .constant(value)))
    }

    /// `SUBQUERY(…) == value`.
    public static func == (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.equal, v) }
    /// `SUBQUERY(…) != value`.
    public static func != (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.notEqual, v) }
    /// `SUBQUERY(…) < value`.
    public static func < (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.less, v) }
    /// `SUBQUERY(…) <= value`.
    public static func <= (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.lessOrEqual, v) }
    /// `SUBQUERY(…) > value`.
    public static func > (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.greater, v) }
    /// `SUBQUERY(…) >= value`.
    public static func >= (s: PredicateSubquery, v: Value) -> ObjectPredicate { s.compare(.greaterOrEqual, v) }
}
