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
/// paths become `LEFT JOIN`s and to-many ones (`ANY`/`ALL`/`NONE`, collection operators,
/// `SUBQUERY`) correlated subqueries (``SQLKeyPathJoins``); ties sort by primary key.
struct SQLQueryCompiler<Dialect: SQLDialect> {
    /// A piece of SQL in this dialect.
    typealias Fragment = SQLFragment<Dialect.Arguments>
    /// An operand in this dialect.
    typealias Term = SQLTerm<Dialect.Arguments>

    /// Lists up to this long compare item by item (readable SQL, index-friendly); longer ones
    /// go through ``SQLDialect/membership(of:in:options:)``.
    static var inlineListLimit: Int { 16 }

    /// How the engine spells things, and (for numbered placeholders) the parameters bound so far.
    var dialect: Dialect
    let layout: StoreLayout
    let model: ManagedObjectModel
    private var keyPaths: SQLKeyPathJoins<Dialect>
    /// Whether the condition being compiled counts only where it holds: reached from the
    /// query's `WHERE` through `AND` and `OR` alone, where a `NULL` outcome excludes the row
    /// as false does. An ordering against a constant may then take a form an index answers
    /// (``SQLDialect/indexableOrdering(_:_:_:)``).
    var outcomeCountsOnlyWhenTrue = false

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
            outcomeCountsOnlyWhenTrue = true
            defer { outcomeCountsOnlyWhenTrue = false }
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
            let saved = outcomeStartsCounting()
            defer { outcomeCountsOnlyWhenTrue = saved }
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
            let indexable = outcomeStartsCounting()
            // A subquery's value is not a WHERE; a negated test sits under a NOT.
            let r = try terms(right, alias: alias)
            let l = try terms(left, alias: alias).first ?? .null
            outcomeCountsOnlyWhenTrue = indexable && !negated
            defer { outcomeCountsOnlyWhenTrue = indexable }
            let t = try test(l, c.op, r, c.options)
            return negated ? "NOT (\(t))" : t
        case .elements(let plan, let right):
            // ALL and NONE test the elements under a NOT.
            let saved = outcomeStartsCounting()
            defer { outcomeCountsOnlyWhenTrue = saved }
            let r = try terms(right, alias: alias)
            let (sub, element) = keyPaths.elements(of: plan, alias: alias)
            let t = try test(terminalTerm(plan, entity: element, alias: sub.alias), c.op, r, c.options)
            return Fragment(SQLKeyPathJoins<Dialect>.quantified(c.modifier, over: sub, test: t.sql), t.arguments)
        }
    }

    /// Marks what is compiled next as a place where a condition's `NULL` outcome is not the
    /// same as false (under a `NOT`, inside a quantifier or a subquery's value); returns the
    /// mark to restore after it.
    private mutating func outcomeStartsCounting() -> Bool {
        defer { outcomeCountsOnlyWhenTrue = false }
        return outcomeCountsOnlyWhenTrue
    }

    /// A side's terms (one, or several for a literal list).
    private mutating func terms(_ side: SQLComparisonShape.Side, alias: String) throws -> [Term] {
        switch side {
        case .constants(let values): return values.map(Term.constant)
        case .keyPath(let plan): return [try directTerm(plan, alias: alias)]
        case .subquery(let plan): return [try subqueryTerm(plan, alias: alias)]
        }
    }

    // MARK: Key paths

    /// A key path's value as a result column, read as stored (decimals as their stored text,
    /// so they read back exactly), with the attribute type to decode it by and the attribute
    /// itself (both `nil` for foreign keys, counts and transient attributes): a transformable
    /// value is read through its transformer, as objects read it.
    /// - Throws: ``QueryError/invalidKeyPath(entity:keyPath:reason:)`` for an unknown key path
    ///   or one crossing a to-many without a collection operator.
    mutating func outputColumn(_ path: String, entity: EntityDescription) throws -> SQLOutputColumn {
        let plan = try KeyPathPlan(path, entity: entity, model: model)
        guard plan.isSingleValued else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key has no single value")
        }
        switch try directTerm(plan, alias: "t0") {
        case .column(let column):
            guard case .attribute(let a) = plan.terminal else { preconditionFailure("a column term reads an attribute") }
            return SQLOutputColumn(sql: "\(column.alias).\(Dialect.identifier(column.name))", type: column.type,
                                   attribute: plan.finalEntity.attributes[a])
        case .number(let sql):
            // A count or foreign key is an integer (`nil`); a collection operator's value
            // reads as its type, decimals computed as doubles.
            let type = plan.valueType.map { $0 == .decimal ? .double : $0 }
            return SQLOutputColumn(sql: sql, type: type == .integer64 ? nil : type, attribute: nil)
        case .null, .constant: return SQLOutputColumn(sql: "CAST(NULL AS BIGINT)", type: nil, attribute: nil)
        case .expression: preconditionFailure("a key path binds no constants")
        }
    }

    /// The value of a key path without to-many steps (or ending in a collection operator),
    /// joining to-ones with `LEFT JOIN` (a missing destination reads as `NULL`).
    private mutating func directTerm(_ plan: KeyPathPlan, alias: String) throws -> Term {
        let summaryAt = plan.endsWithCollectionOperator ? plan.steps.count - 1 : plan.steps.count
        let (ownerAlias, ownerEntity) = keyPaths.outerJoins(plan, upTo: summaryAt, alias: alias)
        if plan.endsWithCollectionOperator, case .toMany(let r) = plan.steps[summaryAt] {
            let sub = keyPaths.toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)
            switch plan.terminal {
            case .aggregate(let op, let a):
                let column = attributeTerm(a, of: plan.finalEntity, alias: sub.alias)
                return .number(SQLKeyPathJoins<Dialect>.aggregate(collectionAggregate(op, of: column), of: sub, emptyIsZero: op == .sum))
            default:
                return .number(SQLKeyPathJoins<Dialect>.count(of: sub))
            }
        }
        return terminalTerm(plan, entity: ownerEntity, alias: ownerAlias)
    }

    /// `op` over `column` of a subquery's rows (``SQLDialect/collectionAggregate(_:of:)``).
    private mutating func collectionAggregate(_ op: CollectionOperator, of column: Term) -> String {
        // The plans refuse transient attributes, the only ones without a column.
        guard case .column(let c) = column else { preconditionFailure("\(op.rawValue) reads a stored attribute") }
        return dialect.collectionAggregate(op, of: c)
    }

    /// A `SUBQUERY`'s value over the row under `alias`: `(SELECT COUNT(*) FROM … WHERE link
    /// AND condition)` (or a collection operator instead of `COUNT(*)`), the condition's
    /// `LEFT JOIN`s inside the subquery.
    private mutating func subqueryTerm(_ plan: SubqueryPlan, alias: String) throws -> Term {
        let last = plan.collection.steps.count - 1
        let (ownerAlias, ownerEntity) = keyPaths.outerJoins(plan.collection, upTo: last, alias: alias)
        guard case .toMany(let r) = plan.collection.steps[last] else { preconditionFailure("a subquery's collection ends on a to-many") }
        var sub = keyPaths.toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)
        let outer = keyPaths.enterScope()
        let inner: Fragment
        do {
            // Normalized with the predicate it is part of.
            inner = try condition(plan.subquery.predicate, entity: plan.element, alias: sub.alias)
        } catch {
            _ = keyPaths.leaveScope(outer)
            throw error
        }
        for join in keyPaths.leaveScope(outer) { sub.from += " " + join }
        let expression: String
        if let aggregate = plan.aggregate {
            expression = collectionAggregate(aggregate.op, of: attributeTerm(aggregate.attribute, of: plan.element, alias: sub.alias))
        } else {
            expression = "COUNT(*)"
        }
        let select: Fragment = "(SELECT \(expression) FROM \(sub.from) WHERE \(sub.link) AND \(inner))"
        return .expression(plan.aggregate?.op == .sum ? "COALESCE(\(select), 0)" : select)
    }

    /// The key path's final value read from `alias` (an attribute column, a foreign key, or 1
    /// for the mere presence of a to-many element).
    private func terminalTerm(_ plan: KeyPathPlan, entity: EntityDescription, alias: String) -> Term {
        switch plan.terminal {
        case .attribute(let a):
            return attributeTerm(a, of: entity, alias: alias)
        case .relationship(let r):
            if r < 0 { return .number("1") }
            return .number("\(alias).\(Dialect.identifier(layout.toOneKeyColumn(r, ofEntity: entity.index)))")
        case .count, .aggregate:
            return .number("0")
        }
    }

    /// Attribute `a` of `entity`, read from the row under `alias`.
    private func attributeTerm(_ a: Int, of entity: EntityDescription, alias: String) -> Term {
        let entityLayout = layout.entities[entity.index]
        // A transient attribute is never stored: the store holds no value for it.
        guard let position = entityLayout.attributeColumns[a] else { return .null }
        return .column(SQLColumnTerm(alias: alias, name: layout.tables[entityLayout.tableIndex].columns[position].name,
                                     type: entity.attributes[a].type, table: entityLayout.tableIndex, position: position))
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
