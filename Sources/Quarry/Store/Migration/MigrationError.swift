/// Why a store cannot be migrated to a model. Every case names the store file and the entity and
/// property at fault. When one is thrown, nothing was written: the store still opens with its
/// old model.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An attribute changed to a type that cannot hold every value of the old one (only integer
    /// widening, integer → floating point or decimal, float → double and anything → string are
    /// inferred).
    case incompatibleType(path: String, entity: String, attribute: String, from: AttributeType, to: AttributeType)
    /// A required attribute without a default value has rows without a value (an attribute
    /// added as required, or one that was optional).
    case missingValues(path: String, entity: String, attribute: String, rows: Int)
    /// A uniqueness constraint was added that existing rows break; `examples` shows some of the
    /// duplicated value combinations with their row counts.
    case duplicateRows(path: String, entity: String, attributes: [String], groups: Int, examples: [String])
    /// A to-many relationship became to-one while some objects hold more than one destination.
    case tooManyDestinations(path: String, entity: String, relationship: String, objects: Int)
    /// The store is read-only (or was opened so), so it cannot be migrated.
    case readOnly(path: String, plan: String)
    /// The in-memory store is never migrated: it is created empty with its model.
    case inMemoryStore

    public var description: String {
        switch self {
        case .incompatibleType(let p, let e, let a, let from, let to):
            return "\(p): cannot migrate \(e).\(a) from \(from.rawValue) to \(to.rawValue): not every value would be kept (inferred: integer widening, integer → Double/Float/Decimal, Float → Double, anything → String)"
        case .missingValues(let p, let e, let a, let rows):
            return "\(p): cannot migrate \(e).\(a): it is required and has no default value, but \(rows) row\(rows == 1 ? "" : "s") of \(e) have no value for it; give it a default value or keep it optional"
        case .duplicateRows(let p, let e, let a, let groups, let examples):
            return "\(p): cannot add the uniqueness constraint \(e)(\(a.joined(separator: ", "))): \(groups) value combination\(groups == 1 ? " is" : "s are") held by more than one row, e.g. \(examples.joined(separator: "; "))"
        case .tooManyDestinations(let p, let e, let r, let objects):
            return "\(p): cannot make \(e).\(r) to-one: \(objects) object\(objects == 1 ? "" : "s") of \(e) hold more than one destination"
        case .readOnly(let p, let plan):
            return "\(p): the store needs a migration but was opened read-only; nothing was changed. The migration would be:\n\(plan)"
        case .inMemoryStore:
            return "the in-memory store is not migrated: it is created empty with its model"
        }
    }
}
