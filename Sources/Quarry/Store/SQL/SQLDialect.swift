/// What differs between the SQL back ends when ``SQLQueryCompiler`` writes a query: the
/// compiler walks the predicate, sort keys and key paths once and asks its dialect only how
/// to write what the engines spell differently. A dialect answers by capability, never by
/// name; `SQLiteDialect` and `PostgreSQLDialect` live beside their stores.
///
/// Every form a dialect returns must keep the in-memory back end's semantics
/// (``PredicateSemantics``): a test is true or false, never `NULL`, and values compare in
/// ``ValueOrdering``'s order. Every fragment it returns for a test must be a primary (a
/// parenthesized expression, a call, a literal) so the compiler can put `NOT` before it and
/// join it with `AND`/`OR` without parentheses of its own.
///
/// Rendering is `mutating` because rendering a constant binds it: a dialect with numbered
/// placeholders keeps its parameters in order of binding.
protocol SQLDialect {
    /// What a fragment carries for its placeholders (``SQLArguments``).
    associatedtype Arguments: SQLArguments
    /// An operand in this dialect (a subquery's carries its arguments).
    typealias Term = SQLTerm<Arguments>

    // MARK: Names and literals

    /// `name` as a quoted identifier. Default: standard SQL double quotes (``sqlIdentifier(_:)``).
    static func identifier(_ name: String) -> String
    /// The literal of a test that holds or fails (`1`/`0`, `true`/`false`).
    static func booleanLiteral(_ value: Bool) -> String
    /// The clause limiting a statement to `limit` rows (0: no limit) after skipping `offset`,
    /// with a leading space; empty when both are 0.
    static func window(limit: Int, offset: Int) -> String
    /// What follows a sort term to sort it `ascending` or not, `NULL` first when ascending and
    /// last when descending (with a leading space, or empty).
    static func sortDirection(ascending: Bool) -> String

    // MARK: Comparisons

    /// Whether the engine itself orders values of different kinds as ``ValueOrdering`` does
    /// (`NULL` < numbers < text < bytes) and yields false for a string operator on a value that
    /// is not text. When `false`, the compiler decides such comparisons from the operands'
    /// kinds (``SQLTerm/kind``) and never sends them to the engine.
    static var comparesAcrossKinds: Bool { get }
    /// The null-safe equality operator (`IS`, `IS NOT DISTINCT FROM`), or inequality when
    /// `negated` (`IS NOT`, `IS DISTINCT FROM`).
    static func nullSafeEquality(negated: Bool) -> String

    /// `term` as stored for comparison: decimals as numbers, constants bound.
    mutating func value(_ term: Term) -> SQLFragment<Arguments>
    /// `term` as compared under `options`: folded by ``StringMatching/fold(_:_:)`` when
    /// `options` is not empty (so `[c]`, `[d]` and `[cd]` compare folded text).
    mutating func comparable(_ term: Term, options: ComparisonOptions) -> SQLFragment<Arguments>
    /// Whether `left` (folded by `options`) equals one of `items`, for a list longer than
    /// ``SQLQueryCompiler/inlineListLimit`` in a form whose length does not grow with the
    /// list; `nil` to keep the short form (one null-safe equality per item).
    mutating func membership(of left: Term, in items: [Value], options: ComparisonOptions) -> SQLFragment<Arguments>?
    /// `text op pattern` for a string operator (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`,
    /// `MATCHES`), true or false.
    /// - Throws: ``QueryError`` for a pattern the engine cannot run with Quarry's semantics.
    mutating func stringTest(_ op: ComparisonOperator, _ text: Term, _ pattern: Term, options: ComparisonOptions) throws -> SQLFragment<Arguments>
    /// `column op constant` (an ordering: `<`, `<=`, `>`, `>=`) in a form an index on the
    /// column can answer, or `nil` to keep the general form. Asked only where the comparison's
    /// outcome matters only when it holds (reached from a `WHERE` through `AND` and `OR`
    /// alone, where `NULL` counts as false), for a constant of the column's own kind.
    mutating func indexableOrdering(_ column: SQLColumnTerm, _ op: ComparisonOperator, _ constant: Value) -> SQLFragment<Arguments>?
    /// The `ORDER BY` term sorting `term` (a key path's value, never a constant) by `comparison`.
    mutating func sortTerm(_ term: Term, _ comparison: SortKey.StringComparison) -> String
    /// Whether the primary key of the row under `alias` is one of `ids` (not empty), in a
    /// form whose length does not grow with the list.
    mutating func primaryKey(under alias: String, in ids: [ObjectID]) -> SQLFragment<Arguments>

    // MARK: Collection operators

    /// The select-list expression computing `op` (``CollectionOperator``) over `column` in a
    /// subquery's rows, as the in-memory back end computes it: `nil` values left out, an
    /// integer sum beyond 64 bits an error (never a wrap, never a wider type), a mean as a
    /// double, decimals as doubles. The compiler turns the `NULL` of an empty `@sum` into 0.
    /// Default: `SUM`, `AVG`, `MIN`, `MAX` of ``value(_:)`` (decimals as numbers), which
    /// SQLite computes so.
    mutating func collectionAggregate(_ op: CollectionOperator, of column: SQLColumnTerm) -> String
}

extension SQLDialect {
    /// Standard SQL double quotes, as SQLite and PostgreSQL read them.
    static func identifier(_ name: String) -> String { sqlIdentifier(name) }

    mutating func collectionAggregate(_ op: CollectionOperator, of column: SQLColumnTerm) -> String {
        "\(op.sqlFunction)(\(value(.column(column)).sql))"
    }

    /// Default: none (the general form).
    mutating func indexableOrdering(_ column: SQLColumnTerm, _ op: ComparisonOperator, _ constant: Value) -> SQLFragment<Arguments>? { nil }
}

extension CollectionOperator {
    /// The SQL aggregate function computing the operator.
    var sqlFunction: String {
        switch self {
        case .sum: return "SUM"
        case .avg: return "AVG"
        case .min: return "MIN"
        case .max: return "MAX"
        }
    }
}
