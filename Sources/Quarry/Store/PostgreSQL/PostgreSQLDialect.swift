import Foundation

/// How PostgreSQL spells what ``SQLQueryCompiler`` writes, keeping the in-memory back end's
/// semantics exactly (see ``PredicateSemantics``):
///
/// - `$n` placeholders, the parameters kept here in order of binding (``parameters``);
/// - every test is `true` or `false`, never `NULL` (`IS [NOT] DISTINCT FROM` for equality,
///   `COALESCE(…, false)` around everything else);
/// - text compares by bytes (`COLLATE "C"`), decimals as numbers, Booleans as 0/1, dates as
///   seconds; PostgreSQL cannot compare operands of different kinds (only possible with
///   transformables), so the compiler decides those by kind, as ``ValueOrdering`` does;
/// - `[c]`, `[d]` and `[cd]` compare the shadow columns (``PostgreSQLStore``) that hold
///   ``StringMatching/fold(_:_:)``'s result, constants folded by the same function;
/// - `LIKE` runs on the NFC form (Swift compares characters by canonical equivalence), `*`
///   and `?` becoming `%` and `_` (one code point: a grapheme cluster of several code points
///   that NFC does not compose is where PostgreSQL and Swift can differ);
/// - sorts use the column, its `[c]` fold, or its ``PostgreSQLStandardSortKey`` (`__STD`),
///   `NULLS FIRST` ascending;
/// - long `IN` lists and lists of IDs are one array parameter per kind of value (`= ANY($n)`),
///   so any number of values fits PostgreSQL's 65,535 parameters.
///
/// `MATCHES` is PostgreSQL's ARE engine (`~`, `~*` for `[c]`) on `^(?:pattern)$`, not ICU:
/// the common syntax (literals, `.`, classes, `\d\w\s`, groups, alternation, quantifiers,
/// look-ahead and look-behind, back references) means the same, with `.` rewritten to exclude
/// line terminators as ICU does and, when the server has ICU (`und-x-icu`), Unicode-aware
/// classes and case folding. Patterns using syntax the two engines read differently (`\b`,
/// `\p{…}`, `\Q…\E`, `\x`, inline flags, named groups, atomic groups, possessive quantifiers,
/// set operations in brackets) are refused with ``QueryError/invalidOperand(_:)``
/// (``PostgreSQLRegex``); `[d]` matches against the diacritic-folded shadow column.
struct PostgreSQLDialect: SQLDialect {
    typealias Arguments = SQLNoArguments
    typealias Fragment = SQLFragment<SQLNoArguments>

    /// The store's layout: which text columns have shadow columns.
    let layout: PostgreSQLLayout
    /// The collation `MATCHES` runs under (`und-x-icu` when the server has it).
    let regexCollation: String
    /// The bound parameters, `$1` first.
    private(set) var parameters: [PostgreSQLParameter] = []

    init(layout: PostgreSQLLayout, regexCollation: String = "C") {
        self.layout = layout
        self.regexCollation = regexCollation
    }

    static func booleanLiteral(_ value: Bool) -> String { value ? "true" : "false" }
    static var comparesAcrossKinds: Bool { false }

    static func nullSafeEquality(negated: Bool) -> String {
        negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
    }

    /// PostgreSQL sorts `NULL` last ascending unless told otherwise.
    static func sortDirection(ascending: Bool) -> String { ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST" }

    static func window(limit: Int, offset: Int) -> String {
        (limit > 0 ? " LIMIT \(limit)" : "") + (offset > 0 ? " OFFSET \(offset)" : "")
    }

    /// Appends `p` to the parameters; returns its placeholder.
    mutating func bind(_ p: PostgreSQLParameter) -> String {
        parameters.append(p)
        return "$\(parameters.count)"
    }

    mutating func value(_ term: Term) -> Fragment { Fragment(render(term)) }

    mutating func comparable(_ term: Term, options: ComparisonOptions) -> Fragment {
        Fragment(folded(term, options))
    }

    mutating func primaryKey(under alias: String, in ids: [ObjectID]) -> Fragment {
        Fragment("\(alias).\(Self.identifier("Z_PK")) = ANY(\(bind(.integers(ids.map(\.primaryKey)))))")
    }

    mutating func sortTerm(_ term: Term, _ comparison: SortKey.StringComparison) -> String {
        switch comparison {
        case .binary: return render(term)
        case .caseInsensitive: return folded(term, .caseInsensitive)
        case .localizedStandard:
            guard let column = shadowedColumn(term) else { return render(term) }
            return "\(column.alias).\(Self.identifier(column.name + "__STD"))"
        }
    }

    // MARK: Rendering

    /// `term` as stored for comparison: decimals as numbers, text constants in byte order.
    mutating func render(_ term: Term) -> String {
        switch term {
        case .null: return "NULL"
        case .number(let sql): return sql
        case .expression(let fragment): return fragment.sql
        case .column(let c):
            let column = "\(c.alias).\(Self.identifier(c.name))"
            return c.type == .decimal ? "(\(column))::double precision" : column
        case .constant(let v):
            switch v {
            case .null: return "NULL"
            case .integer(let i): return bind(.integer(i))
            case .bool(let b): return bind(.integer(b ? 1 : 0))
            case .double(let d): return bind(.double(d))
            case .date(let d): return bind(.double(d.timeIntervalSinceReferenceDate))
            case .decimal(let d): return bind(.double(NSDecimalNumber(decimal: d.decimal).doubleValue))
            case .data(let d): return bind(.bytes(d))
            case .string, .uuid, .uri, .json: return text(ValueOrdering.text(of: v)!)
            }
        }
    }

    /// A text constant in byte order.
    mutating func text(_ s: String) -> String { "(\(bind(.text(s))) COLLATE \"C\")" }

    /// `term` folded by `options`: a text column's shadow, a text constant folded in Swift.
    mutating func folded(_ term: Term, _ options: ComparisonOptions) -> String {
        guard !options.isEmpty else { return render(term) }
        if let column = shadowedColumn(term) { return shadow(column, suffix: "__F\(options.rawValue & 3)") }
        if case .constant(let v) = term, let s = ValueOrdering.text(of: v) { return text(StringMatching.fold(s, options)) }
        return render(term)
    }

    /// The text column `term` reads when it has shadow columns, else `nil`.
    func shadowedColumn(_ term: Term) -> SQLColumnTerm? {
        guard case .column(let c) = term, Term.kind(of: c.type) == .text, layout.shadowed[c.table][c.position] else { return nil }
        return c
    }

    /// Shadow column `suffix` of `column`, or the column itself where the shadow is `NULL`.
    func shadow(_ column: SQLColumnTerm, suffix: String) -> String {
        "COALESCE(\(column.alias).\(Self.identifier(column.name + suffix)), \(column.alias).\(Self.identifier(column.name)))"
    }

    // MARK: Collection operators

    /// `SUM` of integers cast back to `bigint` (PostgreSQL sums them as `numeric`, which never
    /// overflows: the cast fails where Swift and SQLite do); `AVG` over doubles (of integers
    /// as `numeric`, rounded otherwise than Swift's mean); the rest as the default.
    mutating func collectionAggregate(_ op: CollectionOperator, of column: SQLColumnTerm) -> String {
        let value = render(.column(column))
        switch (op, column.type) {
        case (.sum, .integer16), (.sum, .integer32), (.sum, .integer64): return "SUM(\(value))::bigint"
        case (.avg, _): return "AVG((\(value))::double precision)"
        default: return "\(op.sqlFunction)(\(value))"
        }
    }

    // MARK: Long lists

    /// `left IN items` for a long list of constants: one array parameter per kind of value
    /// (`= ANY($n)`), so any number of values fits PostgreSQL's 65,535 parameters.
    mutating func membership(of l: Term, in items: [Value], options: ComparisonOptions) -> Fragment? {
        let left = folded(l, options)
        var integers: [Int64] = [], doubles: [Double] = [], texts: [String] = []
        var null = false, others: [String] = []
        for value in items {
            switch value {
            case .null: null = true
            case .integer(let i): integers.append(i)
            case .bool(let b): integers.append(b ? 1 : 0)
            case .double(let d): doubles.append(d)
            case .date(let d): doubles.append(d.timeIntervalSinceReferenceDate)
            case .decimal(let d): doubles.append(NSDecimalNumber(decimal: d.decimal).doubleValue)
            case .string, .uuid, .uri, .json:
                let text = ValueOrdering.text(of: value)!
                texts.append(options.isEmpty ? text : StringMatching.fold(text, options))
            case .data: others.append("\(left) IS NOT DISTINCT FROM \(folded(.constant(value), options))")
            }
        }
        var parts = others
        if !integers.isEmpty { parts.append("\(left) = ANY(\(bind(.integers(integers))))") }
        if !doubles.isEmpty { parts.append("\(left) = ANY(\(bind(.doubles(doubles))))") }
        if !texts.isEmpty { parts.append("\(left) = ANY(\(bind(.texts(texts))))") }
        if null { parts.append("\(left) IS NULL") }
        return Fragment("COALESCE(" + parts.joined(separator: " OR ") + ", false)")
    }
}
