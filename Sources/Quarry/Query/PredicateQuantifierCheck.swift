/// Refuses `ANY`, `ALL` and `NONE` on a key path that leads to one value (`ANY price > 1`,
/// `ALL sector.name == 'x'` where `sector` is to-one): Core Data rejects them, and here they
/// would quietly act as a plain comparison (or its negation), hiding a wrong key path. Run by
/// both back ends with the type check, so a parsed predicate's error names the quantifier's column.
enum PredicateQuantifierCheck {
    /// - Throws: ``QueryError/quantifierNeedsToMany(quantifier:keyPath:column:)``.
    static func check(_ c: PredicateComparison, entity: EntityDescription, model: ManagedObjectModel) throws {
        guard c.modifier != .direct else { return }
        switch c.lhs {
        case .keyPath(let path):
            let plan = try KeyPathPlan(path, entity: entity, model: model)
            guard !plan.crossesToMany else { return }
            throw QueryError.quantifierNeedsToMany(quantifier: name(of: c.modifier), keyPath: path, column: c.columns?.modifier)
        case .subquery:
            // A subquery gives one value, whatever it reads.
            throw QueryError.quantifierNeedsToMany(quantifier: name(of: c.modifier), keyPath: PredicateFormatter.format(c.lhs),
                                                   column: c.columns?.modifier)
        case .constant, .list, .variable:
            return
        }
    }

    private static func name(of modifier: ComparisonModifier) -> String {
        switch modifier {
        case .any: return "ANY"
        case .all: return "ALL"
        case .none: return "NONE"
        case .direct: return ""
        }
    }
}
