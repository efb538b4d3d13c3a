/// How an attribute's stored values change when its type changes: the conversions an inferred
/// migration may make, because they keep every value.
enum AttributeConversion: Equatable, Sendable {
    /// The stored form is unchanged (same type, integer widening, Boolean → integer, Float → Double).
    case unchanged
    /// Integers become floating point (`REAL`).
    case integerToReal
    /// Integers become decimals (their digits as text).
    case integerToDecimal
    /// Any value becomes a string.
    case toString(from: AttributeType)

    /// The conversion from `from` to `to`, or `nil` when some value could be lost.
    init?(from: AttributeType, to: AttributeType) {
        if from == to { self = .unchanged; return }
        switch (from, to) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64),
             (.boolean, .integer16), (.boolean, .integer32), (.boolean, .integer64), (.float, .double):
            self = .unchanged
        case (.integer16, .double), (.integer32, .double), (.integer64, .double),
             (.integer16, .float), (.integer32, .float), (.boolean, .double), (.boolean, .float):
            self = .integerToReal
        case (.integer16, .decimal), (.integer32, .decimal), (.integer64, .decimal), (.boolean, .decimal):
            self = .integerToDecimal
        case (_, .string):
            self = from == .decimal || from == .uuid || from == .uri || from == .transformable ? .unchanged : .toString(from: from)
        default:
            return nil
        }
    }

    /// The SQL expression converting `column` (an old column reference).
    func sql(_ column: String) -> String {
        switch self {
        case .unchanged: return column
        case .integerToReal: return "CAST(\(column) AS REAL)"
        case .integerToDecimal: return "CAST(\(column) AS TEXT)"
        case .toString(let from):
            switch from {
            case .boolean: return "CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) THEN 'true' ELSE 'false' END"
            // Dates are seconds since 2001-01-01 UTC; written as ISO 8601 in UTC.
            case .date:
                return "CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) = CAST(\(column) AS INTEGER) THEN strftime('%Y-%m-%dT%H:%M:%SZ', \(column) + 978307200, 'unixepoch') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', \(column) + 978307200, 'unixepoch') END"
            case .binary: return "\(Self.base64Function)(\(column))"
            default: return "CAST(\(column) AS TEXT)"
            }
        }
    }

    /// Whether the conversion leaves stored values as they are, so a column can stay in place.
    var keepsStorage: Bool { self == .unchanged }

    /// The SQL function the migration connection registers to write binary values as base64.
    static let base64Function = "quarry_migration_base64"
}
