/// A PostgreSQL type's OID (`pg_type.oid`): the built-in types Quarry binds and decodes, or any
/// other the server sends.
struct PGType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The OID.
    var rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No type given: the server infers it from the statement.
    static let unspecified = PGType(rawValue: 0)
    static let bool = PGType(rawValue: 16)
    static let bytea = PGType(rawValue: 17)
    static let name = PGType(rawValue: 19)
    static let int8 = PGType(rawValue: 20)
    static let int2 = PGType(rawValue: 21)
    static let int4 = PGType(rawValue: 23)
    static let text = PGType(rawValue: 25)
    static let oid = PGType(rawValue: 26)
    static let json = PGType(rawValue: 114)
    static let float4 = PGType(rawValue: 700)
    static let float8 = PGType(rawValue: 701)
    static let unknown = PGType(rawValue: 705)
    static let bpchar = PGType(rawValue: 1042)
    static let varchar = PGType(rawValue: 1043)
    static let numeric = PGType(rawValue: 1700)
    static let uuid = PGType(rawValue: 2950)
    static let jsonb = PGType(rawValue: 3802)
    static let int8Array = PGType(rawValue: 1016)
    static let int4Array = PGType(rawValue: 1007)
    static let float8Array = PGType(rawValue: 1022)
    static let textArray = PGType(rawValue: 1009)

    /// The type's SQL name for the built-in ones, else `oid <n>`.
    var description: String {
        switch self {
        case .bool: return "boolean"
        case .bytea: return "bytea"
        case .name: return "name"
        case .int8: return "bigint"
        case .int2: return "smallint"
        case .int4: return "integer"
        case .text: return "text"
        case .oid: return "oid"
        case .json: return "json"
        case .float4: return "real"
        case .float8: return "double precision"
        case .unknown: return "unknown"
        case .bpchar: return "character"
        case .varchar: return "character varying"
        case .numeric: return "numeric"
        case .uuid: return "uuid"
        case .jsonb: return "jsonb"
        case .int8Array: return "bigint[]"
        case .int4Array: return "integer[]"
        case .float8Array: return "double precision[]"
        case .textArray: return "text[]"
        default: return "oid \(rawValue)"
        }
    }

    /// Whether values of this type are text (their binary form is their UTF-8 bytes).
    var isText: Bool {
        self == .text || self == .varchar || self == .bpchar || self == .name || self == .unknown || self == .json
    }
}
