/// Compiles a ``StoreQuery`` (entity, predicate, sort keys, window) into one `SELECT` over the
/// entity's root table, with bound parameters only: the one walk of ``ObjectPredicate`` that
/// writes SQL, for every SQL back end; `Dialect` (``SQLDialect``) says how each engine spells
/// what differs.
///
/// The SQL keeps the in-memory back end's semantics exactly (see ``PredicateSemantics``):
/// every test is true or false, never `NULL` (null-safe equality, `COALESCE(…, false)` around
/// everything else); values compare in ``ValueOrdering``'s order (by the engine, or decided
/// here from the operands' kinds when the engine cannot: ``SQLDialect/comparesAcrossKinds``);
/// `[c]`, `[d]` and `[cd]` compare text folded by ``StringMatching/fold(_:_:)``. To-one key
/// paths become `LEFT JOIN`s and to-many ones (`ANY`/`ALL`/`NONE`, `@count`) correlated
/// subqueries (``SQLKeyPathJoins``); ties sort by primary key.
struct SQLQueryCompiler<Dialect: SQLDialect> {
    /// A piece of SQL in this dialect.
    typealias Fragment = SQLFragment<Dialect.Arguments>

    /// Lists up to this long compare item by item (readable SQL, index-friendly); longer ones
    /// go through ``SQLDialect/membership(of:in:options:)``.
    static var inlineListLimit: Int { 16 }

    /// How the engine spells things, and (for numbered placeholders) the parameters bound so far.
    var dialect: Dialect
    let layout: StoreLayout
    let model: ManagedObjectModel
    private var keyPaths: SQLKeyPathJoins<Dialect>

    init(dialect: Dialect, layout: StoreLayout, model: ManagedObjectModel) {
        self.dialect = dialect
        self.layout = layout
        self.model = model
        keyPaths = SQLKeyPathJoins(layout: layout, model: model)
    }

    /// The `SELECT` for `query`, with `columns` (SQL over alias `t0`) as results.
    /// - Throws: ``QueryError`` for an invalid predicate or sort key.
    mutating func select(_ query: StoreQuery, columns: [String]) throws -> SQLSelect<Dialect> {
        let table = layout.table(ofEntity: query.entity.index)
        var select = SQLSelect<Dialect>(table: table.name, columns: columns)
        if let filter = entityFilter(query, table: table) { select.filters.append(filter) }
        if let predicate = query.predicate {
            try predicate.checkNesting()
            select.filters.append(try condition(predicate.normalized, entity: query.entity, alias: "t0"))
        }
        if let ids = query.restrictedTo {
            select.filters.append(ids.isEmpty ? Fragment(Dialect.booleanLiteral(false)) : dialect.primaryKey(under: "t0", in: ids))
        }
        var ordering: [String] = []
        for key in query.sortDescriptors {
            let plan = try KeyPathPlan(sortingBy: key, entity: query.entity, model: model)
            let term = dialect.sortTerm(try directTerm(plan, alias: "t0"), key.comparison)
            ordering.append(term + Dialect.sortDirection(ascending: key.ascending))
        }
        select.ordering = ordering + ["t0." + Dialect.identifier("Z_PK")]
        select.joins = keyPaths.joins
        select.limit = query.limit
        select.offset = query.offset
        return select
    }

    /// The `Z_ENT` term selecting the query's entities, or `nil` when they fill the table.
    private func entityFilter(_ query: StoreQuery, table: StoreLayout.Table) -> Fragment? {
        let entities = query.includesSubentities ? query.entity.selfAndDescendantIndices : [query.entity.index]
        if Set(entities) == Set(table.entityIndices) { return nil }
        let column = "t0." + Dialect.identifier("Z_ENT")
        if entities.count == 1 { return Fragment("\(column) = \(String(entities[0]))") }
        return Fragment("\(column) IN (\(entities.map(String.init).joined(separator: ", ")))")
    }

    // MARK: Predicates

    /// `p` over the row of `entity` under `alias`: a primary or a `NOT` of one.
    mutating func condition(_ p: ObjectPredicate, entity: EntityDescription, alias: String) throws -> Fragment {
        switch p {
        case .truePredicate: return Fragment(Dialect.booleanLiteral(true))
        case .falsePredicate: return Fragment(Dialect.booleanLiteral(false))
        case .not(let q):
            // Every fragment is a primary (parenthesized, a call, EXISTS) or a NOT of one, so
            // no parentheses are added: SQLite's parser stack holds only ~30 nested ones.
            let inner = try condition(q, entity: entity, alias: alias)
            return "NOT \(inner)"
        case .and(let ps):
            guard !ps.isEmpty else { return Fragment(Dialect.booleanLiteral(true)) }
            return Fragment.balanced(try ps.map { try condition($0, entity: entity, alias: alias) }, glue: " AND ")
        case .or(let ps):
            guard !ps.isEmpty else { return Fragment(Dialect.booleanLiteral(false)) }
            return Fragment.balanced(try ps.map { try condition($0, entity: entity, alias: alias) }, glue: " OR ")
        case .comparison(let c):
            return try comparison(c, entity: entity, alias: alias)
        }
    }

    private mutating func comparison(_ c: PredicateComparison, entity: EntityDescription, alias: String) throws -> Fragment {
        switch try SQLComparisonShape(c, entity: entity, model: model) {
        case .direct(let left, let right, let negated):
            let r = try terms(right, alias: alias)
            let t = try test(try terms(left, alias: alias).first ?? .null, c.op, r, c.options)
            return negated ? "NOT (\(t))" : t
        case .elements(let plan, let right):
            let r = try terms(right, alias: alias)
            let (sub, element) = keyPaths.elements(of: plan, alias: alias)
            let t = try test(terminalTerm(plan, entity: element, alias: sub.alias), c.op, r, c.options)
            return Fragment(SQLKeyPathJoins<Dialect>.quantified(c.modifier, over: sub, test: t.sql), t.arguments)
        }
    }

    /// A side's terms (one, or several for a literal list).
    private mutating func terms(_ side: SQLComparisonShape.Side, alias: String) throws -> [SQLTerm] {
        switch side {
        case .constants(let values): return values.map(SQLTerm.constant)
        case .keyPath(let plan): return [try directTerm(plan, alias: alias)]
        }
    }

    // MARK: Key paths

    /// A key path's value as a result column, read as stored (decimals as their stored text,
    /// so they read back exactly), with the attribute type to decode it by and the attribute
    /// itself (both `nil` for foreign keys, counts and transient attributes): a transformable
    /// value is read through its transformer, as objects read it.
    /// - Throws: ``QueryError/invalidKeyPath(entity:keyPath:reason:)`` for an unknown key path
    ///   or one crossing a to-many without `@count`.
    mutating func outputColumn(_ path: String, entity: EntityDescription) throws -> SQLOutputColumn {
        let plan = try KeyPathPlan(path, entity: entity, model: model)
        guard !plan.crossesToMany || plan.endsWithCount else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key has no single value")
        }
        switch try directTerm(plan, alias: "t0") {
        case .column(let column):
            guard case .attribute(let a) = plan.terminal else { preconditionFailure("a column term reads an attribute") }
            return SQLOutputColumn(sql: "\(column.alias).\(Dialect.identifier(column.name))", type: column.type,
                                   attribute: plan.finalEntity.attributes[a])
        case .number(let sql): return SQLOutputColumn(sql: sql, type: nil, attribute: nil)
        case .null, .constant: return SQLOutputColumn(sql: "CAST(NULL AS BIGINT)", type: nil, attribute: nil)
        }
    }

    /// The value of a key path without to-many steps (or ending in `@count`), joining to-ones
    /// with `LEFT JOIN` (a missing destination reads as `NULL`).
    private mutating func directTerm(_ plan: KeyPathPlan, alias: String) throws -> SQLTerm {
        let countAt = plan.endsWithCount ? plan.steps.count - 1 : plan.steps.count
        let (ownerAlias, ownerEntity) = keyPaths.outerJoins(plan, upTo: countAt, alias: alias)
        if plan.endsWithCount, case .toMany(let r) = plan.steps[countAt] {
            return .number(SQLKeyPathJoins<Dialect>.count(of: keyPaths.toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)))
        }
        return terminalTerm(plan, entity: ownerEntity, alias: ownerAlias)
    }

    /// The key path's final value read from `alias` (an attribute column, a foreign key, or 1
    /// for the mere presence of a to-many element).
    private func terminalTerm(_ plan: KeyPathPlan, entity: EntityDescription, alias: String) -> SQLTerm {
        switch plan.terminal {
        case .attribute(let a):
            let entityLayout = layout.entities[entity.index]
            // A transient attribute is never stored: the store holds no value for it.
            guard let position = entityLayout.attributeColumns[a] else { return .null }
            return .column(SQLColumnTerm(alias: alias, name: layout.tables[entityLayout.tableIndex].columns[position].name,
                                         type: entity.attributes[a].type, table: entityLayout.tableIndex, position: position))
        case .relationship(let r):
            if r < 0 { return .number("1") }
            return .number("\(alias).\(Dialect.identifier(layout.toOneKeyColumn(r, ofEntity: entity.index)))")
        case .count:
            return .number("0")
        }
    }
}

/// A key path's value as a result column of a compiled query
/// (``SQLQueryCompiler/outputColumn(_:entity:)``).
struct SQLOutputColumn {
    /// The SQL expression over the query's tables.
    var sql: String
    /// The attribute type to decode it by; `nil` for an integer (a foreign key, a count) or `NULL`.
    var type: AttributeType?
    /// The attribute read (`nil` as for ``type``), for reading a transformable through its transformer.
    var attribute: AttributeDescription?
}
