/// Why a predicate could not be parsed, bound or checked. Positions are 1-based columns.
public enum QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parser met `token` at `column` where it expected `expected`.
    case unexpected(token: String, column: Int, expected: String)
    /// A string literal was not closed.
    case unterminatedString(column: Int)
    /// A `%@`/`%K` had no argument left.
    case missingArgument(column: Int)
    /// A `%K` argument was not a key path string.
    case invalidKeyPathArgument(column: Int, got: String)
    /// More arguments than `%@`/`%K` placeholders.
    case extraArguments(count: Int)
    /// A key path names a property the entity does not have.
    case unknownKey(entity: String, key: String)
    /// A key path cannot be used there (for example a to-many key without ANY/ALL/NONE).
    case invalidKeyPath(entity: String, keyPath: String, reason: String)
    /// A `$NAME` variable has no value.
    case unboundVariable(String)
    /// A `MATCHES` pattern is not a valid regular expression.
    case invalidRegularExpression(String)
    /// A `MATCHES` pattern needed more than its step budget on some text (it backtracks
    /// catastrophically, like `(.*)*(.*)*z`); the query stops instead of hanging.
    case regexTooCostly(pattern: String)
    /// An operand does not fit the operator.
    case invalidOperand(String)
    /// A comparison of values of mismatched types (`price > 'abc'`); `column` is where the
    /// offending operand began in the parsed text (`nil` for a predicate built in code).
    case mismatchedTypes(column: Int?, reason: String)
    /// `ANY`, `ALL` or `NONE` (`quantifier`) on a key path that leads to one value (an attribute,
    /// or through to-one relationships only), where it would quietly mean a plain comparison;
    /// `column` is the quantifier's (`nil` for a predicate built in code).
    case quantifierNeedsToMany(quantifier: String, keyPath: String, column: Int?)
    /// Parentheses and `NOT`s nest deeper than `limit` (``ObjectPredicate/maximumNesting``);
    /// `column` is where the parser met the level too many (`nil` for a tree built in code).
    case tooDeep(limit: Int, column: Int?)

    /// The end of ``regexTooCostly(pattern:)``'s message (SQLite errors carry it back).
    static let regexBudgetMessage = "exceeded its budget of about a million match steps (it backtracks too much): simplify it"

    public var description: String {
        switch self {
        case .unexpected(let t, let c, let e): return "unexpected '\(t)' at column \(c), expected \(e)"
        case .unterminatedString(let c): return "unterminated string starting at column \(c)"
        case .missingArgument(let c): return "no argument for the placeholder at column \(c)"
        case .invalidKeyPathArgument(let c, let got): return "%K at column \(c) needs a key path string, got \(got)"
        case .extraArguments(let n): return "\(n) argument(s) left over: more arguments than placeholders"
        case .unknownKey(let e, let k): return "entity '\(e)' has no property '\(k)'"
        case .invalidKeyPath(let e, let k, let why): return "key path '\(k)' on '\(e)': \(why)"
        case .unboundVariable(let n): return "variable $\(n) has no value"
        case .invalidRegularExpression(let p): return "invalid regular expression /\(p)/"
        case .invalidOperand(let why): return why
        case .regexTooCostly(let p):
            return "regular expression /\(p)/ \(Self.regexBudgetMessage)"
        case .tooDeep(let limit, let column):
            return "nesting deeper than \(limit)" + (column.map { " at column \($0)" } ?? " (a predicate built in code)")
        case .mismatchedTypes(let column, let why): return column.map { "\(why) at column \($0)" } ?? why
        case .quantifierNeedsToMany(let quantifier, let path, let column):
            return "\(quantifier) needs a key path through a to-many relationship, but '\(path)' leads to one value (compare it without \(quantifier))"
                + (column.map { " at column \($0)" } ?? "")
        }
    }
}

extension QueryError {
    /// The ``regexTooCostly(pattern:)`` a failed SQLite statement reports by its message (the
    /// `quarry_match` function fails with the error's description); `nil` for any other message.
    init?(sqliteMessage message: String?) {
        let prefix = "regular expression /", suffix = "/ " + Self.regexBudgetMessage
        guard let message, message.hasPrefix(prefix), message.hasSuffix(suffix),
              message.count >= prefix.count + suffix.count else { return nil }
        self = .regexTooCostly(pattern: String(message.dropFirst(prefix.count).dropLast(suffix.count)))
    }
}
