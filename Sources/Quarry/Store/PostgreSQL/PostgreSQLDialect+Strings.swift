extension PostgreSQLDialect {
    /// A string operator on two text operands with PostgreSQL's built-ins: `starts_with`,
    /// `right`, `strpos`, `LIKE` on the NFC form, `MATCHES` as an ARE (see ``PostgreSQLDialect``).
    mutating func stringTest(_ op: ComparisonOperator, _ l: Term, _ r: Term, options: ComparisonOptions) throws -> Fragment {
        switch op {
        case .beginsWith:
            return Fragment("COALESCE(starts_with(\(folded(l, options)), \(folded(r, options))), false)")
        case .endsWith:
            let p = folded(r, options)
            return Fragment("COALESCE(right(\(folded(l, options)), char_length(\(p))) = \(p), false)")
        case .contains:
            return Fragment("COALESCE(strpos(\(folded(l, options)), \(folded(r, options))) > 0, false)")
        case .like:
            return Fragment(like(l, r, options))
        case .matches:
            return Fragment(try matches(l, r, options))
        default:
            preconditionFailure("\(op) is not a string operator")
        }
    }

    /// `l LIKE r`, both in NFC (or folded by `options`), the pattern in PostgreSQL's syntax.
    private mutating func like(_ l: Term, _ r: Term, _ options: ComparisonOptions) -> String {
        let text = options.isEmpty ? composed(l) : folded(l, options)
        let pattern: String
        if case .constant(let v) = r, let s = ValueOrdering.text(of: v) {
            let p = options.isEmpty ? s.precomposedStringWithCanonicalMapping : StringMatching.fold(s, options)
            pattern = self.text(Self.likePattern(p))
        } else {
            let p = options.isEmpty ? composed(r) : folded(r, options)
            pattern = #"replace(replace(replace(replace(replace(\#(p), '\', '\\'), '%', '\%'), '_', '\_'), '*', '%'), '?', '_')"#
        }
        return "COALESCE(\(text) LIKE \(pattern), false)"
    }

    /// `l MATCHES r` for a constant pattern, translated by ``PostgreSQLRegex``.
    private mutating func matches(_ l: Term, _ r: Term, _ options: ComparisonOptions) throws -> String {
        guard case .constant(let v) = r, let pattern = ValueOrdering.text(of: v) else {
            throw QueryError.invalidOperand("MATCHES on PostgreSQL needs a constant pattern")
        }
        let translated = try PostgreSQLRegex.translate(pattern)
        let subject = options.contains(.diacriticInsensitive) ? folded(l, .diacriticInsensitive) : render(l)
        let operator_ = options.contains(.caseInsensitive) ? "~*" : "~"
        return "COALESCE((\(subject) COLLATE \"\(regexCollation)\") \(operator_) \(bind(.text(translated))), false)"
    }

    /// `term` in NFC (a text column's `__F0` shadow).
    private mutating func composed(_ term: Term) -> String {
        if let column = shadowedColumn(term) { return shadow(column, suffix: "__F0") }
        if case .constant(let v) = term, let s = ValueOrdering.text(of: v) { return text(s.precomposedStringWithCanonicalMapping) }
        return render(term)
    }

    /// A Quarry `LIKE` pattern (`*`, `?`, by characters) as PostgreSQL's (`%`, `_`, `\` escapes).
    static func likePattern(_ pattern: String) -> String {
        var out = ""
        for ch in pattern {
            switch ch {
            case "*": out += "%"
            case "?": out += "_"
            case "%", "_", "\\": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }
}
