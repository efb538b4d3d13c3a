import Foundation

/// A batch update that a SQL store can run as one `UPDATE … SET … WHERE … RETURNING`
/// statement, with exactly the results of computing each row in Swift (``BatchUpdatePlan``).
///
/// Only assignments whose SQL arithmetic is the engine's IEEE arithmetic on the same operands
/// qualify: a constant (computed and checked once; integers, doubles, strings, Booleans, dates,
/// `nil`), or `+ - * /` on one `Double` attribute with finite non-zero constants (so no row can
/// make a NaN, and no division by a stored zero). The store checks every value the statement
/// wrote against the attribute's rules (``accepts(_:)``) inside the transaction; a value
/// the computed path would refuse rolls the statement back, and the request runs the computed
/// path, which reports it exactly. Anything else (decimals, strings computed per row, integer
/// arithmetic, whose overflow SQL would not report) runs the computed path from the start.
struct SetBasedBatchUpdate {
    /// One `SET`.
    struct Assignment {
        /// The attribute, as the request's entity describes it.
        let attribute: AttributeDescription
        /// What it is set to.
        let form: Form
    }

    /// How an assignment's value is computed in SQL.
    enum Form {
        /// The same value for every row (checked against the attribute once).
        case constant(Value)
        /// Arithmetic on one attribute (the key) with constants.
        case arithmetic(ValueExpression)
    }

    let plan: BatchUpdatePlan
    let assignments: [Assignment]

    /// The set-based form of `plan`, or `nil` when an assignment does not qualify.
    init?(_ plan: BatchUpdatePlan, now: Date) {
        var assignments: [Assignment] = []
        for (attribute, expression) in plan.assignments {
            let keys = expression.keys
            if keys.isEmpty {
                guard let value = try? expression.evaluate({ _ in .null }, now: now),   // refused values take the computed path, which names them
                      let stored = value.coerced(to: attribute.type), attribute.ruleViolation(of: stored) == nil,
                      Self.constantTypes.contains(attribute.type) else { return nil }
                assignments.append(Assignment(attribute: attribute, form: .constant(stored)))
                continue
            }
            guard attribute.type == .double, keys.count == 1,
                  let key = plan.query.entity.attribute(keys[0]), key.type == .double, !key.isTransient,
                  Self.isPlainArithmetic(expression) else { return nil }
            assignments.append(Assignment(attribute: attribute, form: .arithmetic(expression)))
        }
        self.plan = plan
        self.assignments = assignments
    }

    /// The attribute types a constant is set for: stored by SQLite exactly as bound.
    private static let constantTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .string, .boolean, .date]

    /// Whether `e` is `+ - * /` and negation over one key and finite non-zero number constants,
    /// the key never a divisor.
    private static func isPlainArithmetic(_ e: ValueExpression, divisor: Bool = false) -> Bool {
        switch e {
        case .key: return !divisor
        case .constant(let v):
            switch v {
            case .integer(let i): return i != 0
            case .double(let d): return d.isFinite && d != 0
            default: return false
            }
        case .negate(let x): return isPlainArithmetic(x, divisor: divisor)
        case .arithmetic(let op, let l, let r):
            return isPlainArithmetic(l, divisor: divisor) && isPlainArithmetic(r, divisor: divisor || op == .divide)
        case .function: return false
        }
    }

    /// The SQL of `e` over the row's columns (`column` names one by attribute name), its
    /// constants appended to `constants` in order (bound as parameters: exact, never reparsed).
    static func sql(_ e: ValueExpression, column: (String) -> String, constants: inout [Value]) -> String {
        switch e {
        case .key(let k): return column(k)
        case .constant(let v):
            constants.append(v)
            return "?"
        case .negate(let x): return "(-\(sql(x, column: column, constants: &constants)))"
        case .arithmetic(let op, let l, let r):
            let left = sql(l, column: column, constants: &constants)
            let right = sql(r, column: column, constants: &constants)
            return "(\(left) \(op.rawValue) \(right))"
        case .function: preconditionFailure("a set-based update has no functions")
        }
    }

    /// Whether the values the statement wrote for one row (one per assignment, in order) are
    /// those the computed path would have stored.
    func accepts(_ values: [Value]) -> Bool {
        for (assignment, value) in zip(assignments, values) {
            guard case .arithmetic = assignment.form else { continue }   // constants were checked once
            if case .double(let d) = value, d.isNaN { return false }
            if assignment.attribute.ruleViolation(of: value) != nil { return false }
        }
        return true
    }
}
