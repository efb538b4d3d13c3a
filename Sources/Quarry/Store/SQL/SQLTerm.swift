/// One operand of a compiled comparison or sort, before a dialect renders it for one use
/// (as stored, folded, as a sort key): ``SQLQueryCompiler`` decides what is compared,
/// ``SQLDialect`` how it is written. `Arguments` are the dialect's (``SQLArguments``): a
/// subquery's term carries the constants its condition binds.
enum SQLTerm<Arguments: SQLArguments> {
    /// No value (a transient attribute, which the store never holds).
    case null
    /// A constant of the predicate, bound when rendered.
    case constant(Value)
    /// An attribute's column.
    case column(SQLColumnTerm)
    /// A number-valued expression binding nothing: a foreign key, a count, the presence of an
    /// element, a collection operator over a to-many's column.
    case number(String)
    /// A number-valued expression that binds constants: a `SUBQUERY`'s scalar subquery.
    case expression(SQLFragment<Arguments>)

    /// How a term compares, in ``ValueOrdering``'s order of kinds.
    enum Kind: Int {
        case null = 0, number = 1, text = 2, blob = 3
    }

    /// The kind of this term's values.
    var kind: Kind {
        switch self {
        case .null: return .null
        case .number, .expression: return .number
        case .constant(let v):
            switch ValueOrdering.comparable(v) {
            case .null: return .null
            case .number: return .number
            case .text: return .text
            case .blob: return .blob
            }
        case .column(let column): return Self.kind(of: column.type)
        }
    }

    /// The kind of an attribute type's stored values: text for strings, UUIDs, URIs and
    /// transformables (JSON), bytes for binary data, numbers for the rest.
    static func kind(of type: AttributeType) -> Kind {
        switch type {
        case .string, .uuid, .uri, .transformable: return .text
        case .binary: return .blob
        default: return .number
        }
    }
}

/// An attribute's column as an operand: where it is read and what it holds.
struct SQLColumnTerm {
    /// The alias of the table it is read from (`t0`, `t1`, …).
    var alias: String
    /// The column's name (unquoted).
    var name: String
    /// The attribute's type.
    var type: AttributeType
    /// The column's root table (``StoreLayout/tables``).
    var table: Int
    /// The column's position in its table's data columns.
    var position: Int
}
