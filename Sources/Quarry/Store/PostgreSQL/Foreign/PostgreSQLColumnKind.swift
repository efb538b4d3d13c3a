/// The attribute type Quarry shows one column of a PostgreSQL table it did not make as, and
/// the expression that reads the column's values in Quarry's stored form (see
/// ``ForeignPostgreSQLSchema``).
///
/// Decided from `pg_catalog` alone (PostgreSQL columns hold what they declare, so nothing is
/// sampled), through domains to their base type:
///
/// | PostgreSQL | Quarry | Read as |
/// |---|---|---|
/// | `smallint`, `integer`, `bigint` | Integer 16/32/64 | the column (an index on it stays usable) |
/// | `numeric(p,0)`, p ≤ 18 | Integer 64 | `::bigint` |
/// | other `numeric` | Decimal (scale kept: `12.50`) | its text; `NaN` is `NULL` |
/// | `real`, `double precision` | Double | the column |
/// | `boolean` | Boolean | `0`/`1` |
/// | `date` | Date (shown as a date: a UTC midnight) | seconds since 2001 |
/// | `timestamp` (as UTC), `timestamptz` | Date | seconds since 2001 |
/// | `uuid` | UUID | upper-case text |
/// | `bytea` | Binary | the column |
/// | text types, `json`, `jsonb`, enums, arrays, anything else | String | its text form |
///
/// Infinite dates and timestamps read as `NULL`.
struct PostgreSQLColumnKind: Equatable, Sendable {
    /// The attribute type.
    var type: AttributeType
    /// The expression reading the column from the source row `s` in Quarry's form.
    var expression: String

    /// The kind of column `quoted` (already quoted) of base type `typeName` (`pg_type.typname`
    /// of the column's type, or of a domain's base type), `typmod` its `atttypmod`, `category`
    /// its `typcategory` (`A` for arrays, `E` for enums).
    static func decide(column quoted: String, typeName: String, typmod: Int, category: String) -> PostgreSQLColumnKind {
        let s = "s.\(quoted)"
        if category == "A" { return text(s) }
        switch typeName {
        case "int2": return PostgreSQLColumnKind(type: .integer16, expression: s)
        case "int4": return PostgreSQLColumnKind(type: .integer32, expression: s)
        case "int8": return PostgreSQLColumnKind(type: .integer64, expression: s)
        case "numeric":
            // atttypmod is ((precision << 16) | scale) + 4, or -1 when unconstrained.
            if typmod >= 4 {
                let precision = (typmod - 4) >> 16, scale = (typmod - 4) & 0xFFFF
                if scale == 0 && precision <= 18 { return PostgreSQLColumnKind(type: .integer64, expression: "\(s)::bigint") }
            }
            return PostgreSQLColumnKind(type: .decimal, expression: "(NULLIF(\(s), 'NaN')::text COLLATE \"C\")")
        case "float4", "float8": return PostgreSQLColumnKind(type: .double, expression: s)
        case "bool": return PostgreSQLColumnKind(type: .boolean, expression: "(\(s))::int::bigint")
        case "date", "timestamp", "timestamptz":
            return PostgreSQLColumnKind(
                type: .date,
                expression: "(CASE WHEN isfinite(\(s)) THEN extract(epoch FROM \(s))::double precision - 978307200 END)")
        case "uuid": return PostgreSQLColumnKind(type: .uuid, expression: "(upper(\(s)::text) COLLATE \"C\")")
        case "bytea": return PostgreSQLColumnKind(type: .binary, expression: s)
        default: return text(s)
        }
    }

    /// Any other column: its text form, compared by bytes as Quarry compares strings.
    private static func text(_ s: String) -> PostgreSQLColumnKind {
        PostgreSQLColumnKind(type: .string, expression: "(\(s)::text COLLATE \"C\")")
    }
}
