/// Compiles a predicate for one entity into a closure that evaluates it against managed
/// objects in memory (their current values, unsaved changes included).
///
/// Compilation checks every key path against the model first (unknown keys name the entity
/// and key; to-many keys need `ANY`, `ALL`, `NONE` or a collection operator), so nothing runs
/// on an invalid predicate. Semantics match the SQL back end exactly (see ``ValueOrdering`` and
/// ``StringMatching``): comparisons with `nil` are false except `==`/`!=`, which treat `nil`
/// as a value.
public struct PredicateEvaluator: @unchecked Sendable {
    // Immutable after init; the closure reads objects only on their context's queue.
    private let check: (ObjectSubject) throws -> Bool

    /// Compiles `predicate` for objects of `entity`.
    /// - Throws: ``QueryError`` for unknown keys, unbound variables or invalid patterns.
    public init(_ predicate: ObjectPredicate, entity: EntityDescription, model: ManagedObjectModel) throws {
        check = try SubjectPredicate<ObjectSubject>.compileThrowing(predicate, entity: entity, model: model)
    }

    /// Whether `object` satisfies the predicate (`false` when a `MATCHES` pattern exceeds its
    /// step budget: ``test(_:)`` reports that).
    // The documented non-throwing form: a failure (a MATCHES over its step budget, a to-many
    // the store could not read) answers false; ``test(_:)`` reports it.
    public func evaluate(_ object: ManagedObject) -> Bool { (try? check(ObjectSubject(object: object))) ?? false }

    /// Whether `object` satisfies the predicate.
    /// - Throws: ``QueryError/regexTooCostly(pattern:)`` when a `MATCHES` pattern exceeds its step budget.
    public func test(_ object: ManagedObject) throws -> Bool { try check(ObjectSubject(object: object)) }
}

/// The in-memory back end, generic over what is evaluated (objects or stored rows).
enum SubjectPredicate<Subject: PredicateSubject> {
    /// - Throws: ``QueryError/tooDeep(limit:column:)`` for a tree nested deeper than
    ///   ``ObjectPredicate/maximumNesting`` (checked without recursion), so compiling and
    ///   evaluating never overflow the stack.
    ///   A `MATCHES` over its step budget makes the closure answer `false`; use
    ///   ``compileThrowing(_:entity:model:)`` to hear of it.
    static func compile(_ p: ObjectPredicate, entity: EntityDescription, model: ManagedObjectModel) throws -> (Subject) -> Bool {
        let test = try compileThrowing(p, entity: entity, model: model)
        // The non-throwing form, documented: a MATCHES over its step budget answers false (compileThrowing reports it).
        return { (try? test($0)) ?? false }
    }

    /// Like ``compile(_:entity:model:)``, with a closure that throws
    /// ``QueryError/regexTooCostly(pattern:)`` when a `MATCHES` exceeds its step budget.
    /// `normalizing: false` evaluates the tree as written (tests compare it with the
    /// normalized form, ``ObjectPredicate/normalized``).
    static func compileThrowing(_ p: ObjectPredicate, entity: EntityDescription, model: ManagedObjectModel,
                                normalizing: Bool = true) throws -> (Subject) throws -> Bool {
        try p.checkNesting()
        return try node(normalizing ? p.normalized : p, entity: entity, model: model)
    }

    private static func node(_ p: ObjectPredicate, entity: EntityDescription, model: ManagedObjectModel) throws -> (Subject) throws -> Bool {
        switch p {
        case .truePredicate: return { _ in true }
        case .falsePredicate: return { _ in false }
        case .and(let ps):
            let parts = try ps.map { try node($0, entity: entity, model: model) }
            return { o in try parts.allSatisfy { try $0(o) } }
        case .or(let ps):
            let parts = try ps.map { try node($0, entity: entity, model: model) }
            return { o in try parts.contains { try $0(o) } }
        case .not(let q):
            let inner = try node(q, entity: entity, model: model)
            return { o in try !inner(o) }
        case .comparison(let c):
            return try compile(c, entity: entity, model: model)
        }
    }

    private static func compile(_ c: PredicateComparison, entity: EntityDescription, model: ManagedObjectModel) throws -> (Subject) throws -> Bool {
        try PredicateTypeCheck.check(c, entity: entity, model: model)
        let lhs = try operand(c.lhs, entity: entity, model: model, allowToMany: c.modifier != .direct)
        let rhs = try operand(c.rhs, entity: entity, model: model, allowToMany: false)
        if c.op == .matches, case .constant(.string(let pattern)) = c.rhs, !StringMatching.isValidRegex(pattern) {
            throw QueryError.invalidRegularExpression(pattern)
        }
        let op = c.op, options = c.options
        switch c.modifier {
        case .direct:
            return { o in try PredicateSemantics.test(lhs(o).first ?? .null, op, rhs(o), options) }
        case .any:
            return { o in let r = try rhs(o); return try lhs(o).contains { try PredicateSemantics.test($0, op, r, options) } }
        case .all:
            return { o in let r = try rhs(o); return try lhs(o).allSatisfy { try PredicateSemantics.test($0, op, r, options) } }
        case .none:
            return { o in let r = try rhs(o); return try !lhs(o).contains { try PredicateSemantics.test($0, op, r, options) } }
        }
    }

    /// An operand as a function from the object to its values (one value, or a list for
    /// literal lists and quantified to-many key paths).
    private static func operand(_ e: Operand, entity: EntityDescription, model: ManagedObjectModel,
                                allowToMany: Bool) throws -> (Subject) throws -> [Value] {
        switch e {
        case .constant(let v): return { _ in [v] }
        case .list(let items):
            let values = try items.map { item -> Value in
                guard case .constant(let v) = item else { throw QueryError.invalidOperand("lists may hold constants only") }
                return v
            }
            return { _ in values }
        case .variable(let name): throw QueryError.unboundVariable(name)
        case .keyPath(let path):
            let plan = try KeyPathPlan(path, entity: entity, model: model)
            if !plan.isSingleValued && !allowToMany {
                throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "a to-many key needs ANY, ALL, NONE or a collection operator (@count, @sum…)")
            }
            return { o in try plan.values(of: o) }
        case .subquery(let s):
            let plan = try SubqueryPlan(s, entity: entity, model: model)
            // The subquery's predicate was normalized with the one it is part of.
            let test = try compileThrowing(s.predicate, entity: plan.element, model: model, normalizing: false)
            return { o in [try plan.value(of: o, passing: test)] }
        }
    }

}

/// PredicateComparison semantics shared by every back end.
enum PredicateSemantics {
    /// One comparison of a left value against the right operand's values.
    /// - Throws: ``QueryError/regexTooCostly(pattern:)`` from a `MATCHES` over its step budget.
    static func test(_ l: Value, _ op: ComparisonOperator, _ r: [Value], _ options: ComparisonOptions) throws(QueryError) -> Bool {
        switch op {
        case .in:
            return r.contains { ValueOrdering.compare(l, $0, options: options) == 0 && l.isNull == $0.isNull }
        case .between:
            guard r.count == 2, !l.isNull, !r[0].isNull, !r[1].isNull else { return false }
            return ValueOrdering.compare(l, r[0], options: options) >= 0 && ValueOrdering.compare(l, r[1], options: options) <= 0
        default:
            return try compare(l, op, r.first ?? .null, options)
        }
    }

    static func compare(_ l: Value, _ op: ComparisonOperator, _ r: Value, _ options: ComparisonOptions) throws(QueryError) -> Bool {
        switch op {
        case .equal: return l.isNull == r.isNull && ValueOrdering.compare(l, r, options: options) == 0
        case .notEqual: return !(l.isNull == r.isNull && ValueOrdering.compare(l, r, options: options) == 0)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard !l.isNull, !r.isNull else { return false }
            let c = ValueOrdering.compare(l, r, options: options)
            switch op {
            case .less: return c < 0
            case .lessOrEqual: return c <= 0
            case .greater: return c > 0
            default: return c >= 0
            }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard let text = textValue(l), let pattern = textValue(r) else { return false }
            return try StringMatching.match(op, text: text, pattern: pattern, options: options)
        case .in, .between:
            return try test(l, op, [r], options)
        }
    }

    /// The text a string operator sees: strings, and the values stored as text (UUIDs, URIs,
    /// JSON); numbers, dates and binary never match.
    static func textValue(_ v: Value) -> String? {
        ValueOrdering.text(of: v)
    }
}
