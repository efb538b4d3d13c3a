import Foundation
import GRDB

/// Compiles a ``StoreQuery`` (entity, predicate, sort keys, window) into one `SELECT` over the
/// entity's root table, with bound parameters only.
///
/// The SQL keeps the in-memory back end's semantics exactly (see ``PredicateSemantics``):
/// every leaf yields 0 or 1, never `NULL` (`IS` for equality, `COALESCE(…, 0)` around ordered
/// comparisons), column references in comparisons carry no affinity (`+col`) so SQLite never
/// converts types, decimals compare as numbers, and string operators, folding and collations
/// call the same Swift functions through ``SQLiteFunctions``. To-one key paths become
/// `LEFT JOIN`s; to-many ones (`ANY`/`ALL`/`NONE`, `@count`) become correlated subqueries.
struct SQLiteQueryCompiler {
    let layout: StoreLayout
    let model: ManagedObjectModel
    private var keyPaths: SQLKeyPathJoins

    init(layout: StoreLayout, model: ManagedObjectModel) {
        self.layout = layout
        self.model = model
        keyPaths = SQLKeyPathJoins(layout: layout, model: model)
    }

    /// The `SELECT` for `query`, with `columns` (SQL over alias `t0`) as results.
    mutating func select(_ query: StoreQuery, columns: [String] = ["t0.Z_PK", "t0.Z_ENT"]) throws -> SQLiteSelect {
        let table = layout.table(ofEntity: query.entity.index)
        var select = SQLiteSelect(table: table.name, columns: columns)
        select.alias = "t0"
        if let filter = SQLiteQueryBuilder(layout: layout).entityFilter(query, table: table, alias: "t0") { select.filters.append(filter) }
        if let predicate = query.predicate {
            try predicate.checkNesting()
            select.filters.append(try condition(predicate.normalized, entity: query.entity, alias: "t0"))
        }
        if let ids = query.restrictedTo {
            // One JSON array, not one parameter per ID: any number of IDs fits.
            select.filters.append(SQLiteFragment(sql: ids.isEmpty ? "0" : "t0.Z_PK IN (SELECT value FROM json_each(?))",
                                                 arguments: ["[" + ids.map { String($0.primaryKey) }.joined(separator: ",") + "]"]))
        }
        var ordering: [String] = []
        for key in query.sortDescriptors {
            let plan = try KeyPathPlan(sortingBy: key, entity: query.entity, model: model)
            var term = try directValue(plan, alias: "t0").sql
            switch key.comparison {
            case .binary: break
            case .caseInsensitive: term += " COLLATE QUARRY_NOCASE"
            case .localizedStandard: term += " COLLATE QUARRY_STANDARD"
            }
            ordering.append(term + (key.ascending ? "" : " DESC"))
        }
        select.ordering = ordering + ["t0.Z_PK"]
        select.joins = keyPaths.joins
        select.limit = query.limit
        select.offset = query.offset
        return select
    }

    // MARK: Predicates

    mutating func condition(_ p: ObjectPredicate, entity: EntityDescription, alias: String) throws -> SQLiteFragment {
        switch p {
        case .truePredicate: return SQLiteFragment(sql: "1")
        case .falsePredicate: return SQLiteFragment(sql: "0")
        case .not(let q):
            // Every fragment is a primary (parenthesized, a call, EXISTS) or a NOT of one, so
            // no parentheses are added: SQLite's parser stack holds only ~30 nested ones.
            let inner = try condition(q, entity: entity, alias: alias)
            return SQLiteFragment(sql: "NOT \(inner.sql)", arguments: inner.arguments)
        case .and(let ps), .or(let ps):
            guard !ps.isEmpty else { return SQLiteFragment(sql: { if case .and = p { return "1" } else { return "0" } }()) }
            let parts = try ps.map { try condition($0, entity: entity, alias: alias) }
            let glue: String = { if case .and = p { return " AND " } else { return " OR " } }()
            return Self.balanced(parts[...], glue: glue)
        case .comparison(let c):
            return try comparison(c, entity: entity, alias: alias)
        }
    }

    /// `parts` joined by `glue` as a balanced tree of groups of at most 64: a chain of 10,000
    /// terms nests 3 groups deep (SQLite's parser holds only ~30 nested parentheses) and each
    /// group's expression tree is 64 deep, far from SQLite's limit of 1,000, where a flat
    /// `a AND b AND …` nests once per term. Each part is a primary or a NOT of one (see
    /// ``condition(_:entity:alias:)``), so parts need no parentheses of their own.
    static func balanced(_ parts: ArraySlice<SQLiteFragment>, glue: String) -> SQLiteFragment {
        let fanOut = 64
        var level = Array(parts)
        repeat {
            var next: [SQLiteFragment] = []
            next.reserveCapacity(level.count / fanOut + 1)
            for start in stride(from: 0, to: level.count, by: fanOut) {
                let group = level[start..<min(start + fanOut, level.count)]
                var args = StatementArguments()
                for part in group { args += part.arguments }
                next.append(SQLiteFragment(sql: "(" + group.map(\.sql).joined(separator: glue) + ")", arguments: args))
            }
            level = next
        } while level.count > 1
        return level[0]
    }

    private mutating func comparison(_ c: PredicateComparison, entity: EntityDescription, alias: String) throws -> SQLiteFragment {
        switch try SQLComparisonShape(c, entity: entity, model: model) {
        case .direct(let left, let right, let negated):
            let r = try fragments(right, alias: alias)
            let t = try test(try fragments(left, alias: alias).first ?? SQLiteFragment(sql: "NULL"), c.op, r, c.options)
            return negated ? SQLiteFragment(sql: "NOT (\(t.sql))", arguments: t.arguments) : t
        case .elements(let plan, let right):
            let r = try fragments(right, alias: alias)
            let (sub, element) = keyPaths.elements(of: plan, alias: alias)
            let t = try test(terminalValue(plan, entity: element, alias: sub.alias), c.op, r, c.options)
            return SQLiteFragment(sql: SQLKeyPathJoins.quantified(c.modifier, over: sub, test: t.sql), arguments: t.arguments)
        }
    }

    /// A side's values (one, or several for a literal list).
    private mutating func fragments(_ side: SQLComparisonShape.Side, alias: String) throws -> [SQLiteFragment] {
        switch side {
        case .constants(let values): return values.map(Self.bound)
        case .keyPath(let plan): return [try directValue(plan, alias: alias)]
        }
    }

    /// One comparison; every form yields 0 or 1.
    private func test(_ l: SQLiteFragment, _ op: ComparisonOperator, _ r: [SQLiteFragment], _ options: ComparisonOptions) throws -> SQLiteFragment {
        let flags = options.rawValue
        func folded(_ f: SQLiteFragment) -> SQLiteFragment {
            guard options.isEmpty else { return SQLiteFragment(sql: "quarry_fold(\(f.sql), \(flags))", arguments: f.arguments) }
            // A bound constant has no affinity to strip. `ifnull(?, NULL)` is the value, computed
            // once, like `+(?)`; but a constant holding no function goes on SQLite's list of
            // shared constants, which each new one is compared with as the statement is
            // prepared: 10,000 constants took a second before the first row.
            if f.constant != nil { return SQLiteFragment(sql: "ifnull(\(f.sql), NULL)", arguments: f.arguments) }
            return SQLiteFragment(sql: "+(\(f.sql))", arguments: f.arguments)
        }
        func join(_ parts: [SQLiteFragment], _ text: (([String]) -> String)) -> SQLiteFragment {
            var args = StatementArguments()
            for p in parts { args += p.arguments }
            return SQLiteFragment(sql: text(parts.map(\.sql)), arguments: args)
        }
        let left = folded(l)
        switch op {
        case .equal: return join([left, folded(r[0])]) { "(\($0[0]) IS \($0[1]))" }
        case .notEqual: return join([left, folded(r[0])]) { "(\($0[0]) IS NOT \($0[1]))" }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let symbol = op.rawValue
            return join([left, folded(r[0])]) { "COALESCE(\($0[0]) \(symbol) \($0[1]), 0)" }
        case .in:
            guard !r.isEmpty else { return SQLiteFragment(sql: "0") }
            if r.count > SQLiteInList.inlineLimit, let list = SQLiteInList(r) {
                return list.membership(of: l, options: options)
            }
            // A list JSON cannot carry (binary data, NaN…): one `IS` per item, grouped so any
            // length stays within SQLite's expression depth.
            let tests = r.map { item in join([left, folded(item)]) { "(\($0[0]) IS \($0[1]))" } }
            return Self.balanced(tests[...], glue: " OR ")
        case .between:
            guard r.count == 2 else { throw QueryError.invalidOperand("BETWEEN needs a list of two values, like {1, 10}") }
            return join([left, folded(r[0]), left, folded(r[1])]) { "COALESCE(\($0[0]) >= \($0[1]) AND \($0[2]) <= \($0[3]), 0)" }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            let call = join([l, r[0]]) { "quarry_match('\(op.rawValue)', \($0[0]), \($0[1]), \(flags))" }
            // Each call copies the pattern into Swift: a long constant one (a pasted megabyte)
            // is not handed over for the rows too short to match it.
            if options.isEmpty, case .string(let pattern)? = r[0].constant?.storage,
               let least = Self.leastMatchingBytes(op, pattern: pattern), least >= 64 {
                return SQLiteFragment(sql: "CASE WHEN length(CAST(\(l.sql) AS BLOB)) >= \(least) THEN \(call.sql) ELSE 0 END",
                                      arguments: l.arguments + call.arguments)
            }
            return call
        }
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

    // MARK: Key paths

    /// A key path's value as a result column (decimals as stored text, so they read back exactly),
    /// with the attribute type to decode it by and the attribute itself (`nil` for foreign keys
    /// and counts): a transformable value is read through its transformer, as objects read it.
    mutating func outputColumn(_ path: String, entity: EntityDescription) throws -> (sql: String, type: AttributeType?, attribute: AttributeDescription?) {
        let plan = try KeyPathPlan(path, entity: entity, model: model)
        guard !plan.crossesToMany || plan.endsWithCount else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key has no single value")
        }
        let value = try directValue(plan, alias: "t0", asStored: true)
        if case .attribute(let a) = plan.terminal {
            let attribute = plan.finalEntity.attributes[a]
            return (value.sql, attribute.type, attribute)
        }
        return (value.sql, nil, nil)
    }

    /// The value of a key path without to-many steps (or ending in `@count`), joining to-ones
    /// with `LEFT JOIN` (a missing destination reads as `NULL`).
    private mutating func directValue(_ plan: KeyPathPlan, alias: String, asStored: Bool = false) throws -> SQLiteFragment {
        let countAt = plan.endsWithCount ? plan.steps.count - 1 : plan.steps.count
        let (ownerAlias, ownerEntity) = keyPaths.outerJoins(plan, upTo: countAt, alias: alias)
        if plan.endsWithCount, case .toMany(let r) = plan.steps[countAt] {
            return SQLiteFragment(sql: SQLKeyPathJoins.count(of: keyPaths.toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)))
        }
        return terminalValue(plan, entity: ownerEntity, alias: ownerAlias, asStored: asStored)
    }

    /// The key path's final value read from `alias` (an attribute column, a foreign key, or 1
    /// for the mere presence of a to-many element).
    /// Decimals compare as numbers (`CAST … AS REAL`) unless `asStored`, which reads the stored
    /// text so the value comes back exact.
    private func terminalValue(_ plan: KeyPathPlan, entity: EntityDescription, alias: String, asStored: Bool = false) -> SQLiteFragment {
        switch plan.terminal {
        case .attribute(let a):
            let attribute = entity.attributes[a]
            // A transient attribute is never stored: the store holds no value for it.
            guard let name = layout.attributeColumn(a, ofEntity: entity.index) else { return SQLiteFragment(sql: "NULL") }
            let column = "\(alias).\(sqlIdentifier(name))"
            return SQLiteFragment(sql: attribute.type == .decimal && !asStored ? "CAST(\(column) AS REAL)" : column)
        case .relationship(let r):
            if r < 0 { return SQLiteFragment(sql: "1") }
            return SQLiteFragment(sql: "\(alias).\(sqlIdentifier(layout.toOneKeyColumn(r, ofEntity: entity.index)))")
        case .count:
            return SQLiteFragment(sql: "0")
        }
    }

    // MARK: Values

    /// A constant as a bound parameter, stored the way the store stores it.
    static func bound(_ v: Value) -> SQLiteFragment {
        let value = databaseValue(v)
        return SQLiteFragment(sql: "?", arguments: [value], constant: value)
    }

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
