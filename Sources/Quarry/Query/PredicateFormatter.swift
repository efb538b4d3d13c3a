import Foundation

/// Prints a predicate in the format-string language; the text parses back to an equal predicate.
///
/// Inside a `SUBQUERY`, key paths are stored relative to the element and printed from its
/// variable (`$t.price`): `element` is the innermost subquery's variable, `nil` outside.
enum PredicateFormatter {
    static func format(_ p: ObjectPredicate, element: String? = nil) -> String {
        switch p {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .comparison(let c): return format(c, element: element)
        case .and(let ps): return ps.isEmpty ? "TRUEPREDICATE" : ps.map { wrapped($0, element: element) }.joined(separator: " AND ")
        case .or(let ps): return ps.isEmpty ? "FALSEPREDICATE" : ps.map { wrapped($0, element: element) }.joined(separator: " OR ")
        case .not(let q): return "NOT " + wrapped(q, element: element)
        }
    }

    private static func wrapped(_ p: ObjectPredicate, element: String?) -> String {
        switch p {
        case .and, .or: return "(\(format(p, element: element)))"
        default: return format(p, element: element)
        }
    }

    private static func format(_ c: PredicateComparison, element: String?) -> String {
        let modifier: String
        switch c.modifier {
        case .direct: modifier = ""
        case .any: modifier = "ANY "
        case .all: modifier = "ALL "
        case .none: modifier = "NONE "
        }
        var options = ""
        if !c.options.isEmpty {
            options = "[" + (c.options.contains(.caseInsensitive) ? "c" : "") + (c.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return "\(modifier)\(format(c.lhs, element: element)) \(c.op.rawValue)\(options) \(format(c.rhs, element: element))"
    }

    /// A key path as the parser reads it back: components that are not plain identifiers (or
    /// that are keywords) in backticks; from `$element.` inside a subquery.
    static func keyPath(_ path: String, element: String? = nil) -> String {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map { component in
            let name = String(component)
            if name.hasPrefix("@") || (ModelResolver.isValidName(name) && !PredicateParser.isKeyword(name)) { return name }
            return "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
        }.joined(separator: ".")
        return element.map { "$\($0)." + components } ?? components
    }

    static func format(_ e: Operand, element: String? = nil) -> String {
        switch e {
        case .keyPath(let k): return keyPath(k, element: element)
        case .variable(let v): return "$" + v
        case .list(let items): return "{" + items.map { format($0, element: element) }.joined(separator: ", ") + "}"
        case .constant(let v): return literal(v)
        case .subquery(let s): return subquery(s, element: element)
        }
    }

    /// `SUBQUERY(collection, $v, predicate).@count` (or `.@sum.key`, …).
    private static func subquery(_ s: PredicateSubquery, element: String?) -> String {
        let head = "SUBQUERY(\(keyPath(s.collection, element: element)), $\(s.variable), \(format(s.predicate, element: s.variable)))"
        switch s.operation {
        case .count: return head + ".@count"
        case .aggregate(let op, let attribute): return head + "." + op.rawValue + "." + keyPath(attribute)
        }
    }

    static func literal(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .integer(let i): return String(i)
        case .double(let d):
            let s = String(d)
            return s.contains(".") || s.contains("e") || s.contains("inf") || s.contains("nan") ? s : s + ".0"
        case .string(let s): return quote(s)
        case .decimal(let d): return quote("\(d)")
        case .date(let d): return String(d.timeIntervalSinceReferenceDate)
        case .data(let d): return quote(d.base64EncodedString())
        case .uuid(let u): return quote(u.uuidString)
        case .uri(let u): return quote(u.absoluteString)
        case .json(let j): return quote(j.jsonText)
        }
    }

    private static func quote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
