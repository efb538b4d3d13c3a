import Foundation
import GRDB

extension StatementArguments: SQLArguments {}

/// How SQLite spells what ``SQLQueryCompiler`` writes: `?` placeholders whose arguments each
/// fragment carries, `1`/`0` for true and false, `IS` for null-safe equality, and Quarry's own
/// functions and collations (``SQLiteFunctions``) for folding, string operators and string
/// orders, so predicates and sorts run the very same Swift code as the in-memory back end.
///
/// SQLite orders values of different kinds itself as ``ValueOrdering`` does, so long as
/// nothing converts them: column references in comparisons carry no affinity (`+col`), and
/// decimals compare as numbers (`CAST … AS REAL`).
struct SQLiteDialect: SQLDialect {
    typealias Arguments = StatementArguments
    typealias Fragment = SQLFragment<StatementArguments>

    static func booleanLiteral(_ value: Bool) -> String { value ? "1" : "0" }
    static func nullSafeEquality(negated: Bool) -> String { negated ? "IS NOT" : "IS" }
    static var comparesAcrossKinds: Bool { true }

    /// SQLite sorts `NULL` first ascending and last descending by itself.
    static func sortDirection(ascending: Bool) -> String { ascending ? "" : " DESC" }

    /// `LIMIT` (-1 for none) before any `OFFSET`, as SQLite's grammar wants.
    static func window(limit: Int, offset: Int) -> String {
        var text = ""
        if limit > 0 || offset > 0 { text += " LIMIT \(limit > 0 ? limit : -1)" }
        if offset > 0 { text += " OFFSET \(offset)" }
        return text
    }

    func value(_ term: Term) -> Fragment {
        switch term {
        case .null: return "NULL"
        case .constant(let v): return Fragment("?", [Self.databaseValue(v)])
        case .number(let sql): return Fragment(sql)
        case .expression(let fragment): return fragment
        case .column(let c):
            let column = "\(c.alias).\(Self.identifier(c.name))"
            return Fragment(c.type == .decimal ? "CAST(\(column) AS REAL)" : column)
        }
    }

    func comparable(_ term: Term, options: ComparisonOptions) -> Fragment {
        let v = value(term)
        guard options.isEmpty else { return "quarry_fold(\(v), \(String(options.rawValue)))" }
        // A bound constant has no affinity to strip. `ifnull(?, NULL)` is the value, computed
        // once, like `+(?)`; but a constant holding no function goes on SQLite's list of
        // shared constants, which each new one is compared with as the statement is
        // prepared: 10,000 constants took a second before the first row.
        if case .constant = term { return "ifnull(\(v), NULL)" }
        return "+(\(v))"
    }

    func membership(of left: Term, in items: [Value], options: ComparisonOptions) -> Fragment? {
        SQLiteInList(items)?.membership(of: value(left), options: options)
    }

    func stringTest(_ op: ComparisonOperator, _ text: Term, _ pattern: Term, options: ComparisonOptions) -> Fragment {
        let l = value(text)
        let call: Fragment = "quarry_match('\(op.rawValue)', \(l), \(value(pattern)), \(String(options.rawValue)))"
        // Each call copies the pattern into Swift: a long constant one (a pasted megabyte)
        // is not handed over for the rows too short to match it.
        if options.isEmpty, case .constant(let v) = pattern, case .string(let s) = Self.databaseValue(v).storage,
           let least = Self.leastMatchingBytes(op, pattern: s), least >= 64 {
            return "CASE WHEN length(CAST(\(l) AS BLOB)) >= \(String(least)) THEN \(call) ELSE 0 END"
        }
        return call
    }

    /// The fewest UTF-8 bytes a text needs to satisfy `text op pattern` without options:
    /// the pattern's bytes for the byte-wise operators, one per character other than `*` for
    /// `LIKE` (a character matches a canonically equivalent one, which may be shorter); `nil`
    /// for `MATCHES`.
    private static func leastMatchingBytes(_ op: ComparisonOperator, pattern: String) -> Int? {
        switch op {
        case .beginsWith, .endsWith, .contains: return pattern.utf8.count
        case .like: return pattern.reduce(0) { $1 == "*" ? $0 : $0 + 1 }
        default: return nil
        }
    }

    /// The bare column against the bound constant. It compares exactly as the general form
    /// `COALESCE(+col op ifnull(?, NULL), 0)` does: the constant is of the column's kind, so
    /// the column's affinity converts nothing; its collation is the one a binary sort uses;
    /// and a `NULL` outcome counts as false where this form is asked for. Not for decimals
    /// (stored as text, compared as numbers).
    func indexableOrdering(_ column: SQLColumnTerm, _ op: ComparisonOperator, _ constant: Value) -> Fragment? {
        guard column.type != .decimal, case let kind = Term.kind(of: column.type), kind == .number || kind == .text,
              Term.constant(constant).kind == kind else { return nil }
        return Fragment("\(column.alias).\(Self.identifier(column.name)) \(op.rawValue) ?", [Self.databaseValue(constant)])
    }

    /// The term as is, in Quarry's collations for the string orders.
    func sortTerm(_ term: Term, _ comparison: SortKey.StringComparison) -> String {
        let sql = value(term).sql
        switch comparison {
        case .binary: return sql
        case .caseInsensitive: return sql + " COLLATE QUARRY_NOCASE"
        case .localizedStandard: return sql + " COLLATE QUARRY_STANDARD"
        }
    }

    /// One JSON array read with `json_each`, not one parameter per ID: any number of IDs fits,
    /// and the statement stays the same for every list, so it is prepared once and cached.
    func primaryKey(under alias: String, in ids: [ObjectID]) -> Fragment {
        Fragment("\(alias).\(Self.identifier("Z_PK")) IN (SELECT value FROM json_each(?))", [Self.jsonArray(ids.lazy.map(\.primaryKey))])
    }

    /// `keys` as one JSON array (`[3,1,2]`), the parameter a `json_each(?)` list reads.
    static func jsonArray(_ keys: some Collection<Int64>) -> String {
        var json = "["
        json.reserveCapacity(keys.count * 8)
        for (i, key) in keys.enumerated() {
            if i > 0 { json += "," }
            json += String(key)
        }
        return json + "]"
    }

    /// A constant as SQLite stores it (see ``SQLiteStore``): Booleans as 0/1, dates as seconds
    /// since 2001, decimals as doubles (compared as numbers), UUIDs, URIs and JSON as text.
    static func databaseValue(_ v: Value) -> DatabaseValue {
        switch v {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .double(let d): return d.databaseValue
        case .decimal(let d): return NSDecimalNumber(decimal: d.decimal).doubleValue.databaseValue
        case .string(let s): return s.databaseValue
        case .bool(let b): return (b ? 1 : 0 as Int64).databaseValue
        case .date(let d): return d.timeIntervalSinceReferenceDate.databaseValue
        case .data(let d): return d.databaseValue
        case .uuid(let u): return u.uuidString.databaseValue
        case .uri(let u): return u.absoluteString.databaseValue
        case .json(let j): return j.jsonText.databaseValue
        }
    }
}
