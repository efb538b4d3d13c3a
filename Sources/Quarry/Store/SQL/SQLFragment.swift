/// What a piece of compiled SQL carries for its placeholders, so pieces can be put together in
/// any order (``SQLFragment``).
///
/// A dialect with positional placeholders (SQLite's `?`) carries each piece's arguments in
/// text order, and joining pieces joins their arguments; one with numbered placeholders
/// (PostgreSQL's `$n`) keeps its parameters itself, in order of binding, and its pieces carry
/// ``SQLNoArguments``.
protocol SQLArguments {
    /// No arguments.
    init()
    /// `rhs`'s arguments after `lhs`'s.
    static func += (lhs: inout Self, rhs: Self)
}

/// The arguments of a dialect whose placeholders are numbered (`$1`, `$2`, …): the dialect
/// keeps the parameters in order of binding, so a piece of SQL carries none.
struct SQLNoArguments: SQLArguments {
    /// No arguments.
    init() {}
    /// Nothing to join.
    static func += (lhs: inout SQLNoArguments, rhs: SQLNoArguments) {}
}

/// A piece of SQL with the arguments of its placeholders, written by interpolation so text
/// and arguments stay in the same order:
///
/// ```swift
/// let test: SQLFragment<StatementArguments> = "COALESCE(\(left) >= \(low), \(falseLiteral))"
/// ```
///
/// An interpolated fragment adds its text and its arguments; an interpolated `String` is SQL
/// text, never a value (values are bound by ``SQLDialect/value(_:)``).
struct SQLFragment<Arguments: SQLArguments>: ExpressibleByStringInterpolation {
    /// The SQL text.
    var sql: String
    /// The arguments of the placeholders in ``sql``, in order.
    var arguments: Arguments

    /// `sql` with `arguments`.
    init(_ sql: String, _ arguments: Arguments = Arguments()) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A fragment of literal SQL text.
    init(stringLiteral value: String) {
        self.init(value)
    }

    /// A fragment built by interpolation.
    init(stringInterpolation: Interpolation) {
        self.init(stringInterpolation.sql, stringInterpolation.arguments)
    }

    /// Appends text and fragments in order.
    struct Interpolation: StringInterpolationProtocol {
        var sql = ""
        var arguments = Arguments()

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) { sql += literal }

        /// SQL text (a name, an operator, a literal the compiler wrote), not a value.
        mutating func appendInterpolation(_ text: String) { sql += text }

        /// A fragment's text and arguments.
        mutating func appendInterpolation(_ fragment: SQLFragment) {
            sql += fragment.sql
            arguments += fragment.arguments
        }
    }

    /// `parts` joined by `glue` as a balanced tree of parenthesized groups of at most 64: a
    /// chain of 10,000 terms nests 3 groups deep (SQLite's parser holds only ~30 nested
    /// parentheses) and each group's expression tree is 64 deep, far from SQLite's limit of
    /// 1,000, where a flat `a AND b AND …` nests once per term. Each part must be a primary (or
    /// a `NOT` of one), so parts need no parentheses of their own.
    static func balanced(_ parts: [SQLFragment], glue: String) -> SQLFragment {
        let fanOut = 64
        var level = parts
        repeat {
            var next: [SQLFragment] = []
            next.reserveCapacity(level.count / fanOut + 1)
            for start in stride(from: 0, to: level.count, by: fanOut) {
                let group = level[start..<min(start + fanOut, level.count)]
                var arguments = Arguments()
                for part in group { arguments += part.arguments }
                next.append(SQLFragment("(" + group.map(\.sql).joined(separator: glue) + ")", arguments))
            }
            level = next
        } while level.count > 1
        return level[0]
    }
}
