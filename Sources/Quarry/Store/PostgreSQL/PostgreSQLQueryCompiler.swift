#if PostgreSQL
import Foundation

/// Compiles a ``StoreQuery`` into one PostgreSQL `SELECT` over the entity's root table, with
/// bound parameters only, keeping the in-memory back end's semantics exactly (see
/// ``PredicateSemantics`` and ``SQLiteQueryCompiler``, whose structure this follows):
///
/// - every leaf is `true` or `false`, never `NULL` (`IS [NOT] DISTINCT FROM` for equality,
///   `COALESCE(…, false)` around everything else);
/// - text compares by bytes (`COLLATE "C"`), decimals as numbers, Booleans as 0/1, dates as
///   seconds; operands of different kinds (only possible with transformables) compare by
///   kind, as ``ValueOrdering`` does;
/// - `[c]`, `[d]` and `[cd]` compare the shadow columns (``PostgreSQLStore``) that hold
///   ``StringMatching/fold(_:_:)``'s result, constants folded by the same function;
/// - `LIKE` runs on the NFC form (Swift compares characters by canonical equivalence), `*`
///   and `?` becoming `%` and `_` (one code point: a grapheme cluster of several code points
///   that NFC does not compose is where PostgreSQL and Swift can differ);
/// - sorts use the column, its `[c]` fold, or its ``PostgreSQLStandardSortKey`` (`__STD`),
///   `NULLS FIRST` ascending, ties by `Z_PK`.
///
/// `MATCHES` is PostgreSQL's ARE engine (`~`, `~*` for `[c]`) on `^(?:pattern)$`, not ICU:
/// the common syntax (literals, `.`, classes, `\d\w\s`, groups, alternation, quantifiers,
/// look-ahead and look-behind, back references) means the same, with `.` rewritten to exclude
/// line terminators as ICU does and, when the server has ICU (`und-x-icu`), Unicode-aware
/// classes and case folding. Patterns using syntax the two engines read differently (`\b`,
/// `\p{…}`, `\Q…\E`, `\x`, inline flags, named groups, atomic groups, possessive quantifiers,
/// set operations in brackets) are refused with ``QueryError/invalidOperand(_:)``; `[d]`
/// matches against the diacritic-folded shadow column.
struct PostgreSQLQueryCompiler {
    let layout: PostgreSQLLayout
    let model: ManagedObjectModel
    /// The collation `MATCHES` runs under (`und-x-icu` when the server has it).
    let regexCollation: String
    /// The bound parameters, `$1` first.
    private(set) var parameters: [PostgreSQLParameter] = []
    private var keyPaths: SQLKeyPathJoins

    init(layout: PostgreSQLLayout, model: ManagedObjectModel, regexCollation: String = "C") {
        self.layout = layout
        self.model = model
        self.regexCollation = regexCollation
        keyPaths = SQLKeyPathJoins(layout: layout.base, model: model)
    }

    /// A `SELECT` assembled from parts.
    struct Select {
        var table: String
        var columns: [String]
        var joins: [String] = []
        var filters: [String] = []
        var ordering: [String] = []
        var limit = 0
        var offset = 0

        var sql: String {
            var text = "SELECT \(columns.joined(separator: ", ")) FROM \(PostgreSQLLayout.q(table)) t0"
            for join in joins { text += " " + join }
            if !filters.isEmpty { text += " WHERE " + filters.map { "(\($0))" }.joined(separator: " AND ") }
            if !ordering.isEmpty { text += " ORDER BY " + ordering.joined(separator: ", ") }
            if limit > 0 { text += " LIMIT \(limit)" }
            if offset > 0 { text += " OFFSET \(offset)" }
            return text
        }

        var countSQL: String {
            var inner = self
            inner.ordering = []
            if limit == 0 && offset == 0 {
                inner.columns = ["COUNT(*)"]
                return inner.sql
            }
            inner.columns = ["1"]
            return "SELECT COUNT(*) FROM (\(inner.sql)) c"
        }
    }

    /// A value in a comparison, before it is rendered for one use.
    enum Term {
        case null
        case constant(Value)
        /// An attribute's column: `alias."name"`.
        case column(alias: String, name: String, type: AttributeType, shadowed: Bool)
        /// A number-valued expression (foreign key, count, presence).
        case number(String)
    }

    /// How a term compares (``ValueOrdering``'s ranks).
    enum Kind: Int { case null = 0, number = 1, text = 2, blob = 3 }

    static func kind(_ term: Term) -> Kind {
        switch term {
        case .null: return .null
        case .number: return .number
        case .constant(let v):
            switch ValueOrdering.comparable(v) {
            case .null: return .null
            case .number: return .number
            case .text: return .text
            case .blob: return .blob
            }
        case .column(_, _, let type, _):
            if PostgreSQLLayout.isTextual(type) { return .text }
            return type == .binary ? .blob : .number
        }
    }

    mutating func bind(_ p: PostgreSQLParameter) -> String {
        parameters.append(p)
        return "$\(parameters.count)"
    }

    /// The `SELECT` for `query`, with `columns` (SQL over alias `t0`) as results.
    mutating func select(_ query: StoreQuery, columns: [String] = [#"t0."Z_PK""#, #"t0."Z_ENT""#]) throws -> Select {
        let table = layout.base.table(ofEntity: query.entity.index)
        var select = Select(table: table.name, columns: columns)
        let entities = query.includesSubentities ? query.entity.selfAndDescendantIndices : [query.entity.index]
        if Set(entities) != Set(table.entityIndices) {
            select.filters.append("t0.\"Z_ENT\" IN (\(entities.map(String.init).joined(separator: ", ")))")
        }
        if let predicate = query.predicate {
            try predicate.checkNesting()
            select.filters.append(try condition(predicate.normalized, entity: query.entity, alias: "t0"))
        }
        if let ids = query.restrictedTo {
            select.filters.append(ids.isEmpty ? "false" : "t0.\"Z_PK\" = ANY(\(bind(.integers(ids.map(\.primaryKey)))))")
        }
        var ordering: [String] = []
        for key in query.sortDescriptors {
            let plan = try KeyPathPlan(sortingBy: key, entity: query.entity, model: model)
            let term = try directTerm(plan, alias: "t0")
            var expression: String
            switch key.comparison {
            case .binary: expression = render(term)
            case .caseInsensitive: expression = folded(term, .caseInsensitive)
            case .localizedStandard:
                if case .column(let alias, let name, let type, true) = term, PostgreSQLLayout.isTextual(type) {
                    expression = "\(alias).\(PostgreSQLLayout.q(name + "__STD"))"
                } else {
                    expression = render(term)
                }
            }
            expression += key.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"
            ordering.append(expression)
        }
        select.ordering = ordering + [#"t0."Z_PK""#]
        select.joins = keyPaths.joins
        select.limit = query.limit
        select.offset = query.offset
        return select
    }

    // MARK: Predicates

    mutating func condition(_ p: ObjectPredicate, entity: EntityDescription, alias: String) throws -> String {
        switch p {
        case .truePredicate: return "true"
        case .falsePredicate: return "false"
        case .not(let q): return "NOT (\(try condition(q, entity: entity, alias: alias)))"
        case .and(let ps):
            guard !ps.isEmpty else { return "true" }
            return "(" + (try ps.map { "(\(try condition($0, entity: entity, alias: alias)))" }).joined(separator: " AND ") + ")"
        case .or(let ps):
            guard !ps.isEmpty else { return "false" }
            return "(" + (try ps.map { "(\(try condition($0, entity: entity, alias: alias)))" }).joined(separator: " OR ") + ")"
        case .comparison(let c):
            return try comparison(c, entity: entity, alias: alias)
        }
    }

    private mutating func comparison(_ c: PredicateComparison, entity: EntityDescription, alias: String) throws -> String {
        switch try SQLComparisonShape(c, entity: entity, model: model) {
        case .direct(let left, let right, let negated):
            let r = try terms(right, alias: alias)
            let t = try test(try terms(left, alias: alias).first ?? .null, c.op, r, c.options)
            return negated ? "NOT (\(t))" : t
        case .elements(let plan, let right):
            let r = try terms(right, alias: alias)
            let (sub, element) = keyPaths.elements(of: plan, alias: alias)
            return SQLKeyPathJoins.quantified(c.modifier, over: sub, test: try test(terminalTerm(plan, entity: element, alias: sub.alias), c.op, r, c.options))
        }
    }

    /// A side's terms (one, or several for a literal list).
    private mutating func terms(_ side: SQLComparisonShape.Side, alias: String) throws -> [Term] {
        switch side {
        case .constants(let values): return values.map { $0.isNull ? .null : .constant($0) }
        case .keyPath(let plan): return [try directTerm(plan, alias: alias)]
        }
    }

    // MARK: Rendering

    /// `term` as stored for comparison: decimals as numbers, text constants in byte order.
    private mutating func render(_ term: Term) -> String {
        switch term {
        case .null: return "NULL"
        case .number(let sql): return sql
        case .column(let alias, let name, let type, _):
            let column = "\(alias).\(PostgreSQLLayout.q(name))"
            return type == .decimal ? "(\(column))::double precision" : column
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
    private mutating func text(_ s: String) -> String { "(\(bind(.text(s))) COLLATE \"C\")" }

    /// `term` folded by `options`: a text column's shadow, a text constant folded in Swift.
    private mutating func folded(_ term: Term, _ options: ComparisonOptions) -> String {
        guard !options.isEmpty else { return render(term) }
        switch term {
        case .column(let alias, let name, let type, true) where PostgreSQLLayout.isTextual(type):
            return "COALESCE(\(alias).\(PostgreSQLLayout.q(name + "__F\(options.rawValue & 3)")), \(alias).\(PostgreSQLLayout.q(name)))"
        case .constant(let v):
            if let s = ValueOrdering.text(of: v) { return text(StringMatching.fold(s, options)) }
            return render(term)
        default:
            return render(term)
        }
    }

    /// `left IN items` for a long list of constants: one array parameter per kind of value
    /// (`= ANY($n)`), so any number of values fits PostgreSQL's 65,535 parameters.
    private mutating func longInList(_ left: String, _ items: [Term], _ options: ComparisonOptions) throws -> String {
        var integers: [Int64] = [], doubles: [Double] = [], texts: [String] = []
        var null = false, others: [String] = []
        for item in items {
            guard case .constant(let value) = item else {
                if case .null = item { null = true } else { others.append("\(left) IS NOT DISTINCT FROM \(folded(item, options))") }
                continue
            }
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
            case .data: others.append("\(left) IS NOT DISTINCT FROM \(folded(item, options))")
            }
        }
        var parts = others
        if !integers.isEmpty { parts.append("\(left) = ANY(\(bind(.integers(integers))))") }
        if !doubles.isEmpty { parts.append("\(left) = ANY(\(bind(.doubles(doubles))))") }
        if !texts.isEmpty { parts.append("\(left) = ANY(\(bind(.texts(texts))))") }
        if null { parts.append("\(left) IS NULL") }
        return "COALESCE(" + parts.joined(separator: " OR ") + ", false)"
    }

    /// `term` in NFC (a text column's `__F0` shadow).
    private mutating func composed(_ term: Term) -> String {
        switch term {
        case .column(let alias, let name, let type, true) where PostgreSQLLayout.isTextual(type):
            return "COALESCE(\(alias).\(PostgreSQLLayout.q(name + "__F0")), \(alias).\(PostgreSQLLayout.q(name)))"
        case .constant(let v):
            if let s = ValueOrdering.text(of: v) { return text(s.precomposedStringWithCanonicalMapping) }
            return render(term)
        default:
            return render(term)
        }
    }

    /// One comparison; every form is `true` or `false`.
    private mutating func test(_ l: Term, _ op: ComparisonOperator, _ r: [Term], _ options: ComparisonOptions) throws -> String {
        let lk = Self.kind(l)
        func mixed(_ rk: Kind) -> Bool { lk != .null && rk != .null && lk != rk }
        switch op {
        case .equal, .notEqual:
            let rk = Self.kind(r[0])
            let negate = op == .notEqual
            if mixed(rk) { return negate ? "true" : "false" }
            return "(\(folded(l, options)) IS \(negate ? "" : "NOT ")DISTINCT FROM \(folded(r[0], options)))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let rk = Self.kind(r[0])
            if mixed(rk) {
                let holds = Self.holds(op, lk.rawValue < rk.rawValue ? -1 : 1)
                return holds ? "(\(render(l)) IS NOT NULL AND \(render(r[0])) IS NOT NULL)" : "false"
            }
            return "COALESCE(\(folded(l, options)) \(op.rawValue) \(folded(r[0], options)), false)"
        case .in:
            let items = r.filter { !mixed(Self.kind($0)) }
            guard !items.isEmpty else { return "false" }
            let left = folded(l, options)
            if items.count > 16 { return try longInList(left, items, options) }
            var parts: [String] = []
            for item in items { parts.append("\(left) IS NOT DISTINCT FROM \(folded(item, options))") }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .between:
            guard r.count == 2 else { throw QueryError.invalidOperand("BETWEEN needs a list of two values, like {1, 10}") }
            let (ak, bk) = (Self.kind(r[0]), Self.kind(r[1]))
            if mixed(ak) || mixed(bk) {
                let low = mixed(ak) ? (Self.holds(.greaterOrEqual, lk.rawValue < ak.rawValue ? -1 : 1) ? "true" : "false")
                    : "COALESCE(\(folded(l, options)) >= \(folded(r[0], options)), false)"
                let high = mixed(bk) ? (Self.holds(.lessOrEqual, lk.rawValue < bk.rawValue ? -1 : 1) ? "true" : "false")
                    : "COALESCE(\(folded(l, options)) <= \(folded(r[1], options)), false)"
                return "(\(render(l)) IS NOT NULL AND \(low) AND \(high))"
            }
            let left = folded(l, options)
            return "COALESCE(\(left) >= \(folded(r[0], options)) AND \(left) <= \(folded(r[1], options)), false)"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard lk == .text, Self.kind(r[0]) == .text else { return "false" }
            switch op {
            case .beginsWith:
                return "COALESCE(starts_with(\(folded(l, options)), \(folded(r[0], options))), false)"
            case .endsWith:
                let p = folded(r[0], options)
                return "COALESCE(right(\(folded(l, options)), char_length(\(p))) = \(p), false)"
            case .contains:
                return "COALESCE(strpos(\(folded(l, options)), \(folded(r[0], options))) > 0, false)"
            case .like:
                let text = options.isEmpty ? composed(l) : folded(l, options)
                let pattern: String
                if case .constant(let v) = r[0], let s = ValueOrdering.text(of: v) {
                    let p = options.isEmpty ? s.precomposedStringWithCanonicalMapping : StringMatching.fold(s, options)
                    pattern = self.text(Self.likePattern(p))
                } else {
                    let p = options.isEmpty ? composed(r[0]) : folded(r[0], options)
                    pattern = #"replace(replace(replace(replace(replace(\#(p), '\', '\\'), '%', '\%'), '_', '\_'), '*', '%'), '?', '_')"#
                }
                return "COALESCE(\(text) LIKE \(pattern), false)"
            default:
                guard case .constant(let v) = r[0], let pattern = ValueOrdering.text(of: v) else {
                    throw QueryError.invalidOperand("MATCHES on PostgreSQL needs a constant pattern")
                }
                let translated = try PostgreSQLRegex.translate(pattern)
                let subject: String
                if options.contains(.diacriticInsensitive) { subject = folded(l, .diacriticInsensitive) } else { subject = render(l) }
                let operator_ = options.contains(.caseInsensitive) ? "~*" : "~"
                return "COALESCE((\(subject) COLLATE \"\(regexCollation)\") \(operator_) \(bind(.text(translated))), false)"
            }
        }
    }

    /// Whether `op` holds for a comparison result `c` (negative, zero, positive).
    static func holds(_ op: ComparisonOperator, _ c: Int) -> Bool {
        switch op {
        case .less: return c < 0
        case .lessOrEqual: return c <= 0
        case .greater: return c > 0
        case .greaterOrEqual: return c >= 0
        default: return false
        }
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

    // MARK: Key paths

    /// A key path's value as a result column, read as stored (decimals as text), with the
    /// attribute type to decode it by (`nil` for foreign keys and counts).
    mutating func outputColumn(_ path: String, entity: EntityDescription) throws -> (sql: String, type: AttributeType?) {
        let plan = try KeyPathPlan(path, entity: entity, model: model)
        guard !plan.crossesToMany || plan.endsWithCount else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key has no single value")
        }
        let term = try directTerm(plan, alias: "t0")
        switch term {
        case .column(let alias, let name, let type, _): return ("\(alias).\(PostgreSQLLayout.q(name))", type)
        case .number(let sql): return (sql, nil)
        default: return ("NULL::bigint", nil)
        }
    }

    /// The value of a key path without to-many steps (or ending in `@count`), joining to-ones
    /// with `LEFT JOIN` (a missing destination reads as `NULL`).
    private mutating func directTerm(_ plan: KeyPathPlan, alias: String) throws -> Term {
        let countAt = plan.endsWithCount ? plan.steps.count - 1 : plan.steps.count
        let (ownerAlias, ownerEntity) = keyPaths.outerJoins(plan, upTo: countAt, alias: alias)
        if plan.endsWithCount, case .toMany(let r) = plan.steps[countAt] {
            return .number(SQLKeyPathJoins.count(of: keyPaths.toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)))
        }
        return terminalTerm(plan, entity: ownerEntity, alias: ownerAlias)
    }

    /// The key path's final value read from `alias`.
    private func terminalTerm(_ plan: KeyPathPlan, entity: EntityDescription, alias: String) -> Term {
        switch plan.terminal {
        case .attribute(let a):
            let attribute = entity.attributes[a]
            let layoutEntity = layout.base.entities[entity.index]
            guard let position = layoutEntity.attributeColumns[a] else { return .null }
            let name = layout.base.tables[layoutEntity.tableIndex].columns[position].name
            return .column(alias: alias, name: name, type: attribute.type, shadowed: layout.shadowed[layoutEntity.tableIndex][position])
        case .relationship(let r):
            if r < 0 { return .number("1") }
            return .number("\(alias).\(PostgreSQLLayout.q(layout.base.toOneKeyColumn(r, ofEntity: entity.index)))")
        case .count:
            return .number("0")
        }
    }
}
#endif
