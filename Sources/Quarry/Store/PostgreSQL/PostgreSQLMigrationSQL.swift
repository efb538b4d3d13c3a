import Foundation

/// The PostgreSQL dialect of a migration's column expressions: attribute conversions and
/// stored values as literals, producing exactly what a save of the converted value would store
/// (see ``PostgreSQLStore`` for the column types).
enum PostgreSQLMigrationSQL {
    /// The expression converting `column` (a quoted old column) as `conversion` says.
    static func convert(_ conversion: AttributeConversion, _ column: String) -> String {
        switch conversion {
        case .unchanged: return column
        case .integerToReal: return "CAST(\(column) AS double precision)"
        case .integerToDecimal: return "CAST(\(column) AS text)"
        case .toString(let from):
            switch from {
            // Booleans are stored as 0/1.
            case .boolean: return "CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) <> 0 THEN 'true' ELSE 'false' END"
            // Dates are seconds since 2001-01-01 UTC; written as ISO 8601 in UTC, milliseconds
            // only when the date has a fraction (as the SQLite migration writes them).
            case .date:
                let time = "(to_timestamp(\(column) + 978307200) AT TIME ZONE 'UTC')"
                return """
                    CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) = trunc(\(column)) \
                    THEN to_char(\(time), 'YYYY-MM-DD"T"HH24:MI:SS"Z"') \
                    ELSE to_char(\(time), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END
                    """
            // `encode` breaks base64 into lines of 76 characters: the breaks go.
            case .binary: return "translate(encode(\(column), 'base64'), E'\\n', '')"
            // PostgreSQL writes a whole double without its fraction; SQLite (and so the SQLite
            // migration) writes `.0`.
            case .double, .float:
                return "CASE WHEN \(column) = trunc(\(column)) AND abs(\(column)) < 1e15 THEN CAST(CAST(\(column) AS bigint) AS text) || '.0' ELSE CAST(\(column) AS text) END"
            default: return "CAST(\(column) AS text)"
            }
        }
    }

    /// `value` in its stored form as a PostgreSQL literal (DDL and `INSERT … SELECT` take no
    /// bound parameters).
    static func literal(_ value: Value) -> String {
        switch value {
        case .double(let d) where !d.isFinite:
            return d.isNaN ? "NULL" : (d > 0 ? "'Infinity'::double precision" : "'-Infinity'::double precision")
        case .date(let d) where !d.timeIntervalSinceReferenceDate.isFinite:
            return literal(.double(d.timeIntervalSinceReferenceDate))
        case .data(let data): return "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea"
        default: return value.sqlLiteral
        }
    }
}
