/// What the SQL back ends must build for one comparison, decided (and checked) once for both:
/// the operand types are checked, a `MATCHES` pattern must compile, and each key path is
/// planned, with to-many keys allowed only under `ANY`, `ALL`, `NONE` or a collection operator.
enum SQLComparisonShape {
    /// One side of a comparison that reads one value.
    enum Side {
        /// A constant (or a literal list's constants).
        case constants([Value])
        /// A key path without to-many steps, or ending in a collection operator (`@count`, `@sum`…).
        case keyPath(KeyPathPlan)
        /// A `SUBQUERY`'s value.
        case subquery(SubqueryPlan)
    }

    /// `left op right`, each side one value (a constant on the left compares like a column).
    /// Also a quantifier over a key path that reads one value: `ANY`/`ALL` hold when it
    /// matches, `NONE` when it does not (`negated`).
    case direct(left: Side, right: Side, negated: Bool)
    /// A quantifier over the elements of a to-many key path (``SQLKeyPathJoins/elements(of:alias:)``).
    case elements(KeyPathPlan, right: Side)

    /// The shape of `c` on `entity`.
    /// - Throws: ``QueryError`` for operands of the wrong type, an invalid `MATCHES` pattern,
    ///   an unbound variable, a list holding key paths, an unknown key path, or a to-many key
    ///   path without a quantifier.
    init(_ c: PredicateComparison, entity: EntityDescription, model: ManagedObjectModel) throws {
        try PredicateTypeCheck.check(c, entity: entity, model: model)
        if c.op == .matches, case .constant(.string(let pattern)) = c.rhs, !StringMatching.isValidRegex(pattern) {
            throw QueryError.invalidRegularExpression(pattern)
        }
        let right = try Self.side(c.rhs, entity: entity, model: model)
        guard case .keyPath(let path) = c.lhs else {
            self = .direct(left: try Self.side(c.lhs, entity: entity, model: model), right: right, negated: false)
            return
        }
        let plan = try KeyPathPlan(path, entity: entity, model: model)
        if c.modifier == .direct {
            try Self.requireOneValue(plan, entity: entity, path: path)
            self = .direct(left: .keyPath(plan), right: right, negated: false)
        } else if !plan.isSingleValued {
            self = .elements(plan, right: right)
        } else {
            self = .direct(left: .keyPath(plan), right: right, negated: c.modifier == .none)
        }
    }

    /// An operand that reads one value (or a literal list of constants).
    static func side(_ e: Operand, entity: EntityDescription, model: ManagedObjectModel) throws -> Side {
        switch e {
        case .constant(let v): return .constants([v])
        case .list(let items):
            return .constants(try items.map { item in
                guard case .constant(let v) = item else { throw QueryError.invalidOperand("lists may hold constants only") }
                return v
            })
        case .variable(let name): throw QueryError.unboundVariable(name)
        case .keyPath(let path):
            let plan = try KeyPathPlan(path, entity: entity, model: model)
            try requireOneValue(plan, entity: entity, path: path)
            return .keyPath(plan)
        case .subquery(let s):
            return .subquery(try SubqueryPlan(s, entity: entity, model: model))
        }
    }

    private static func requireOneValue(_ plan: KeyPathPlan, entity: EntityDescription, path: String) throws {
        if !plan.isSingleValued {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key needs ANY, ALL, NONE or a collection operator (@count, @sum…)")
        }
    }
}
