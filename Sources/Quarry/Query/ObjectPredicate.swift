/// A filter over objects: the AST of Quarry's predicate language.
///
/// One AST, two back ends with identical results: SQL generation (bound parameters only) and
/// in-memory evaluation against managed objects, unsaved changes included. Build one by
/// parsing the familiar format-string language (``ObjectPredicate/init(format:_:)``), from a
/// dictionary (``ObjectPredicate/init(dictionary:)``), or with the Swift builder (`.key("price") > 10`).
public indirect enum ObjectPredicate: Sendable, Hashable, CustomStringConvertible {
    /// Always true (`TRUEPREDICATE`).
    case truePredicate
    /// Always false (`FALSEPREDICATE`).
    case falsePredicate
    /// A comparison of two expressions.
    case comparison(PredicateComparison)
    /// All of the sub-predicates (`AND`; true when empty).
    case and([ObjectPredicate])
    /// Any of the sub-predicates (`OR`; false when empty).
    case or([ObjectPredicate])
    /// The negation (`NOT`).
    case not(ObjectPredicate)

    public var description: String { PredicateFormatter.format(self) }
}

/// One comparison: `[ANY|ALL|NONE] lhs op[options] rhs`.
public struct PredicateComparison: Sendable, Hashable {
    /// How a to-many left-hand side is quantified.
    public var modifier: ComparisonModifier
    /// The left-hand side.
    public var lhs: Operand
    /// The operator.
    public var op: ComparisonOperator
    /// The right-hand side.
    public var rhs: Operand
    /// String comparison options (`[c]`, `[d]`, `[cd]`).
    public var options: ComparisonOptions
    /// Where the operands began in the parsed text (`nil` for a comparison built in code):
    /// lets a type error name the column. Not part of equality.
    var columns: SourceColumns?

    /// Creates a comparison.
    public init(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand,
                modifier: ComparisonModifier = .direct, options: ComparisonOptions = []) {
        self.modifier = modifier
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.options = options
    }

    /// Equal modifiers, operands, operators and options.
    public static func == (a: PredicateComparison, b: PredicateComparison) -> Bool {
        a.modifier == b.modifier && a.lhs == b.lhs && a.op == b.op && a.rhs == b.rhs && a.options == b.options
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(modifier)
        hasher.combine(lhs)
        hasher.combine(op)
        hasher.combine(rhs)
        hasher.combine(options)
    }
}

/// The 1-based columns where a parsed comparison's operands began.
struct SourceColumns: Sendable {
    /// The left-hand side.
    var lhs: Int
    /// The right-hand side.
    var rhs: Int
    /// Each item of a literal list on the right (`{1, 'a'}`), in order.
    var rhsItems: [Int] = []
    /// The `ANY`/`SOME`/`ALL`/`NONE` word, when there is one.
    var modifier: Int?
}

/// How a comparison treats a to-many key path on its left.
public enum ComparisonModifier: Sendable, Hashable {
    /// A plain comparison (the key path must lead to one value).
    case direct
    /// True when at least one element matches (`ANY`, `SOME`).
    case any
    /// True when every element matches (`ALL`; true for an empty collection).
    case all
    /// True when no element matches (`NONE`).
    case none
}

/// The operators of the predicate language.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` (also written `=`): equal.
    case equal = "=="
    /// `!=` (also written `<>`): not equal.
    case notEqual = "!="
    /// `<`: less than.
    case less = "<"
    /// `<=` (also written `=<`): less than or equal.
    case lessOrEqual = "<="
    /// `>`: greater than.
    case greater = ">"
    /// `>=` (also written `=>`): greater than or equal.
    case greaterOrEqual = ">="
    /// `BEGINSWITH`: the string starts with the other.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the string ends with the other.
    case endsWith = "ENDSWITH"
    /// `CONTAINS`: the string contains the other.
    case contains = "CONTAINS"
    /// `LIKE`: the string matches a pattern with `*` and `?` wildcards.
    case like = "LIKE"
    /// `MATCHES`: the whole string matches a regular expression.
    case matches = "MATCHES"
    /// `IN`: the value is one of a collection's.
    case `in` = "IN"
    /// `BETWEEN`: the value lies within `{low, high}`, both included.
    case between = "BETWEEN"

    /// Whether the operator compares strings (and so takes `[c]`/`[d]` options meaningfully).
    public var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: return true
        default: return false
        }
    }
}

/// String comparison options.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: case-insensitive (Unicode case folding).
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive (accents removed after canonical decomposition).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
}

/// A value in a comparison.
public indirect enum Operand: Sendable, Hashable {
    /// A key path from the evaluated object: `price`, `sector.name`, `tickers.@count`.
    case keyPath(String)
    /// A constant.
    case constant(Value)
    /// A literal list (`{1, 2, 3}`), for `IN` and `BETWEEN`.
    case list([Operand])
    /// A variable (`$NAME`), replaced by ``ObjectPredicate/substituting(_:)`` before use.
    case variable(String)
    /// `SUBQUERY(collection, $v, predicate).@count` (or `.@sum.key`, …): one value computed
    /// from the elements of a to-many that pass a predicate.
    case subquery(PredicateSubquery)

    /// The key path's components.
    var keyPathComponents: [String]? {
        if case .keyPath(let k) = self { return k.split(separator: ".").map(String.init) }
        return nil
    }
}

extension ObjectPredicate {
    /// Replaces every `$NAME` variable with its value from `variables`, inside subqueries too
    /// (a subquery's own variable, which names its element, is not a value and stays).
    /// - Throws: ``QueryError/unboundVariable(_:)`` naming a variable with no value.
    public func substituting(_ variables: [String: Value]) throws -> ObjectPredicate {
        try substituting(variables, keeping: [])
    }

    /// ``substituting(_:)``, leaving the variables named in `kept` (enclosing subqueries' own) as they are.
    private func substituting(_ variables: [String: Value], keeping kept: Set<String>) throws -> ObjectPredicate {
        func expr(_ e: Operand) throws -> Operand {
            switch e {
            case .variable(let name):
                if kept.contains(name) { return e }
                guard let v = variables[name] else { throw QueryError.unboundVariable(name) }
                return .constant(v)
            case .list(let items): return .list(try items.map(expr))
            case .subquery(var s):
                s.predicate = try s.predicate.substituting(variables, keeping: kept.union([s.variable]))
                return .subquery(s)
            case .keyPath, .constant: return e
            }
        }
        switch self {
        case .truePredicate, .falsePredicate: return self
        case .comparison(var c):
            c.lhs = try expr(c.lhs)
            c.rhs = try expr(c.rhs)
            return .comparison(c)
        case .and(let ps): return .and(try ps.map { try $0.substituting(variables, keeping: kept) })
        case .or(let ps): return .or(try ps.map { try $0.substituting(variables, keeping: kept) })
        case .not(let p): return .not(try p.substituting(variables, keeping: kept))
        }
    }

    /// The names of the variables still in the predicate (a subquery's own variable, which
    /// names its element, is not one).
    public var variableNames: Set<String> {
        func names(_ e: Operand) -> Set<String> {
            switch e {
            case .variable(let n): return [n]
            case .list(let items): return items.reduce(into: []) { $0.formUnion(names($1)) }
            case .subquery(let s): return s.predicate.variableNames.subtracting([s.variable])
            case .keyPath, .constant: return []
            }
        }
        switch self {
        case .truePredicate, .falsePredicate: return []
        case .comparison(let c): return names(c.lhs).union(names(c.rhs))
        case .and(let ps), .or(let ps): return ps.reduce(into: []) { $0.formUnion($1.variableNames) }
        case .not(let p): return p.variableNames
        }
    }
}
