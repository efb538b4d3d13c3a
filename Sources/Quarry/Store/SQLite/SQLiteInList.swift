import Foundation
import GRDB

/// A long `IN` list (``SQLiteDialect/membership(of:in:options:)``) bound as one JSON array and
/// read with `json_each`: any length compiles to the same short statement (one parameter),
/// where `x IS a OR x IS b OR …` nests once per item (SQLite refuses ~1,000: "Expression tree
/// is too large") and binds one parameter per item.
///
/// The semantics stay those of ``PredicateSemantics`` (and of the short form): JSON integers
/// come back as `INTEGER`, numbers with a fraction or exponent as `REAL`, strings as `TEXT`, so
/// comparing them with an affinity-free left side (`+x`) converts nothing; `nil` is in the
/// list only when the list holds `nil`. Lists with values JSON cannot carry exactly (binary
/// data, infinities, NaN, text with NUL) keep the short form.
struct SQLiteInList {
    /// The JSON array of the non-null items.
    let json: String
    /// Whether the list holds `nil`.
    let hasNull: Bool

    /// The list of constants `items`, as SQLite stores them (``SQLiteDialect/databaseValue(_:)``);
    /// `nil` when one is not exact in JSON.
    init?(_ items: [Value]) {
        var json = "["
        var hasNull = false
        var first = true
        for item in items {
            let value = SQLiteDialect.databaseValue(item)
            let text: String
            switch value.storage {
            case .null:
                hasNull = true
                continue
            case .int64(let i): text = String(i)
            case .double(let d):
                guard d.isFinite else { return nil }
                // Swift prints the shortest text that reads back to the same double; a
                // whole number prints as `5.0`, which JSON reads back as REAL, as bound.
                text = "\(d)"
            case .string(let s):
                guard let quoted = Self.quoted(s) else { return nil }
                text = quoted
            case .blob: return nil
            }
            if !first { json += "," }
            first = false
            json += text
        }
        self.json = json + "]"
        self.hasNull = hasNull
    }

    /// Whether `left` equals an item (folded by `options` on both sides, as the short form does).
    func membership(of left: SQLiteDialect.Fragment, options: ComparisonOptions) -> SQLiteDialect.Fragment {
        let flags = String(options.rawValue)
        let l: SQLiteDialect.Fragment = options.isEmpty ? "+(\(left))" : "quarry_fold(\(left), \(flags))"
        let item = options.isEmpty ? "value" : "quarry_fold(value, \(flags))"
        let list = SQLiteDialect.Fragment("?", [json])
        let test: SQLiteDialect.Fragment = "COALESCE(\(l) IN (SELECT \(item) FROM json_each(\(list))), 0)"
        return hasNull ? "(\(test) OR (\(left)) IS NULL)" : test
    }

    /// `s` as a JSON string literal; `nil` when it holds NUL (SQLite text would end there).
    static func quoted(_ s: String) -> String? {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\0": return nil
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
