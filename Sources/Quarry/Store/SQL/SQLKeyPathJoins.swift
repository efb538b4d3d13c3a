/// The joins a key path needs in SQL over Quarry's table layout, for ``SQLQueryCompiler``
/// (every SQL store names its tables and columns by ``StoreLayout``; `Dialect` quotes them):
/// one `LEFT JOIN` per distinct to-one path (a missing destination reads as `NULL`), and
/// correlated subqueries over the elements of a to-many. Table aliases are `t1`, `t2`, … (the
/// query's root table is `t0`), unique across the whole statement; a `SUBQUERY`'s condition
/// makes its joins in a nested scope (``enterScope()``), placed inside its subquery.
struct SQLKeyPathJoins<Dialect: SQLDialect> {
    /// The `FROM` and correlation of a subquery over the elements of a to-many relationship.
    struct Subquery {
        /// The tables (`"Item" t3`, or a join table joined to the destination's table).
        var from: String
        /// The condition tying the elements to their owner row (and to the destination's
        /// entities when its table holds others).
        var link: String
        /// The alias of the element's (or, after to-one steps, their destination's) table.
        var alias: String
    }

    let layout: StoreLayout
    let model: ManagedObjectModel
    private var aliasCount = 0
    /// The `LEFT JOIN`s made so far, in order.
    private(set) var joins: [String] = []
    /// The alias each to-one path (`t0.sector.region`) was joined under.
    private var joinAliases: [String: String] = [:]

    /// `name` quoted in the dialect.
    private func q(_ name: String) -> String { Dialect.identifier(name) }
    /// The quoted primary-key column.
    private var pk: String { q("Z_PK") }

    init(layout: StoreLayout, model: ManagedObjectModel) {
        self.layout = layout
        self.model = model
    }

    /// The joins of the scope a ``enterScope()`` left, to restore on ``leaveScope(_:)``.
    struct SavedScope {
        fileprivate var joins: [String]
        fileprivate var joinAliases: [String: String]
    }

    /// Starts a nested scope (a `SUBQUERY`'s condition): the `LEFT JOIN`s made until
    /// ``leaveScope(_:)`` belong inside the subquery, not to the enclosing query. Aliases keep
    /// counting up, so they never clash with the enclosing query's.
    mutating func enterScope() -> SavedScope {
        defer { joins = []; joinAliases = [:] }
        return SavedScope(joins: joins, joinAliases: joinAliases)
    }

    /// Ends the scope `saved` was returned for: returns its joins, restores the enclosing ones.
    mutating func leaveScope(_ saved: SavedScope) -> [String] {
        defer { joins = saved.joins; joinAliases = saved.joinAliases }
        return joins
    }

    /// A table alias not used yet.
    mutating func nextAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// `LEFT JOIN`s for the to-one steps of `plan` before step `end`, from the row under
    /// `alias`; returns the last alias and its entity.
    mutating func outerJoins(_ plan: KeyPathPlan, upTo end: Int, alias: String) -> (alias: String, entity: EntityDescription) {
        var current = alias
        var entity = plan.entities[0]
        var path = alias
        for step in plan.steps[..<end] {
            guard case .toOne(let r) = step else { break }
            path += "." + entity.relationships[r].name
            let destination = model.destination(of: entity, relationship: r)
            if let existing = joinAliases[path] {
                current = existing
            } else {
                let next = nextAlias()
                joins.append("LEFT JOIN \(q(layout.table(ofEntity: destination.index).name)) \(next) "
                             + "ON \(next).\(pk) = \(current).\(q(layout.toOneKeyColumn(r, ofEntity: entity.index)))")
                joinAliases[path] = next
                current = next
            }
            entity = destination
        }
        return (current, entity)
    }

    /// The subquery over the elements of to-many `relationship` of the row of `owner` under
    /// `ownerAlias`.
    mutating func toManySubquery(owner: EntityDescription, ownerAlias: String, relationship r: Int) -> Subquery {
        let element = nextAlias()
        let destination = model.destination(of: owner, relationship: r)
        let kinds = destination.selfAndDescendantIndices
        let destinationTable = layout.table(ofEntity: destination.index)
        let kindFilter = Set(kinds) == Set(destinationTable.entityIndices) ? "" :
            " AND \(element).\(q("Z_ENT")) IN (\(kinds.map(String.init).joined(separator: ", ")))"
        switch layout.entities[owner.index].toMany[r]! {
        case .foreignKey(let table, let column, _, _, _):
            return Subquery(from: "\(q(table)) \(element)",
                            link: "\(element).\(q(column)) = \(ownerAlias).\(pk)" + kindFilter, alias: element)
        case .joinTable(let index, let reversed, _):
            let join = layout.joinTables[index]
            let j = nextAlias()
            let (near, far) = reversed ? ("Z_DST", "Z_SRC") : ("Z_SRC", "Z_DST")
            return Subquery(from: "\(q(join.name)) \(j) JOIN \(q(destinationTable.name)) \(element) ON \(element).\(pk) = \(j).\(q(far))",
                            link: "\(j).\(q(near)) = \(ownerAlias).\(pk)" + kindFilter, alias: element)
        }
    }

    /// For a key path through a to-many (`ANY employees.department.name`): the to-ones before
    /// it joined outside, then the subquery over its elements with the to-one steps after it
    /// joined inside; returns the subquery (its alias the final step's table) and the entity
    /// the plan's terminal is read from.
    mutating func elements(of plan: KeyPathPlan, alias: String) -> (subquery: Subquery, entity: EntityDescription) {
        let split = plan.steps.firstIndex { if case .toMany = $0 { return true } else { return false } }!
        let (ownerAlias, ownerEntity) = outerJoins(plan, upTo: split, alias: alias)
        guard case .toMany(let r) = plan.steps[split] else { preconditionFailure("step \(split) is a to-many") }
        var sub = toManySubquery(owner: ownerEntity, ownerAlias: ownerAlias, relationship: r)
        var entity = plan.entities[split + 1]
        for step in plan.steps[(split + 1)...] {
            guard case .toOne(let r2) = step else { preconditionFailure("a key path crosses one to-many at most") }
            let next = nextAlias()
            let destination = model.destination(of: entity, relationship: r2)
            sub.from += " JOIN \(q(layout.table(ofEntity: destination.index).name)) \(next) "
                + "ON \(next).\(pk) = \(sub.alias).\(q(layout.toOneKeyColumn(r2, ofEntity: entity.index)))"
            sub.alias = next
            entity = destination
        }
        return (sub, entity)
    }

    /// `test` (SQL over the subquery's alias) quantified over the elements: `ANY` holds when
    /// one element passes, `NONE` when none does, `ALL` when none fails.
    static func quantified(_ modifier: ComparisonModifier, over sub: Subquery, test: String) -> String {
        switch modifier {
        case .direct: preconditionFailure("a direct comparison is not quantified")
        case .any: return "EXISTS (SELECT 1 FROM \(sub.from) WHERE \(sub.link) AND (\(test)))"
        case .none: return "NOT EXISTS (SELECT 1 FROM \(sub.from) WHERE \(sub.link) AND (\(test)))"
        case .all: return "NOT EXISTS (SELECT 1 FROM \(sub.from) WHERE \(sub.link) AND NOT (\(test)))"
        }
    }

    /// `COUNT(*)` of the subquery's elements, as a scalar subquery.
    static func count(of sub: Subquery) -> String {
        "(SELECT COUNT(*) FROM \(sub.from) WHERE \(sub.link))"
    }

    /// `expression` (an aggregate such as `SUM(t3."ZVOLUME")`, or `COUNT(*)`) over the
    /// subquery's elements, as a scalar subquery; `0` when there is none and `emptyIsZero`
    /// (an empty `@sum`), else `NULL` (or 0 for `COUNT`).
    static func aggregate(_ expression: String, of sub: Subquery, emptyIsZero: Bool) -> String {
        let select = "(SELECT \(expression) FROM \(sub.from) WHERE \(sub.link))"
        return emptyIsZero ? "COALESCE(\(select), 0)" : select
    }
}
