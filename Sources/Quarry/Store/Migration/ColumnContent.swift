/// What one column of a migrated table holds for the rows of one entity, in terms of the old
/// store: the building block from which a table is altered in place or copied.
enum ColumnContent: Equatable, Sendable {
    /// Nothing: `NULL` (a new relationship column is filled afterwards from its old contents).
    case null
    /// An old column's values, converted.
    case old(column: String, conversion: AttributeConversion)
    /// An old column's values, converted, with `NULL` replaced by a default (optional → required).
    case oldWithDefault(column: String, conversion: AttributeConversion, default: Value)
    /// A constant: the default value of an added attribute.
    case constant(Value)
    /// Entity codes of a relationship's destination: an old `<rel>_ENT` column's codes, renumbered.
    case entityCodes(column: String)
    /// The one entity code an old relationship implied (no `_ENT` column), renumbered; `key` is the
    /// old key column, so rows without a destination stay `NULL`.
    case impliedEntityCode(key: String, oldCode: Int)

    /// The old column the content reads, if any.
    var oldColumn: String? {
        switch self {
        case .null, .constant: return nil
        case .old(let c, _), .oldWithDefault(let c, _, _), .entityCodes(let c): return c
        case .impliedEntityCode(let key, _): return key
        }
    }

    /// Whether the content can stay in the old column without rewriting its values (renumbering
    /// entity codes and filling defaults are row updates, but no copy).
    var keepsStorage: Bool {
        switch self {
        case .old(_, let c), .oldWithDefault(_, let c, _): return c.keepsStorage
        case .entityCodes: return true
        case .null, .constant, .impliedEntityCode: return false
        }
    }
}
