extension MigrationStep {
    /// The SQL expression producing `content` from an old row, in the dialect `convert` (an
    /// attribute conversion applied to a quoted old column) and `literal` (a stored value) speak:
    /// the SQLite and PostgreSQL migrations fill columns from the same contents.
    func expression(_ content: ColumnContent, convert: (AttributeConversion, String) -> String, literal: (Value) -> String) -> String {
        switch content {
        case .null: return "NULL"
        case .old(let column, let conversion): return convert(conversion, sqlIdentifier(column))
        case .oldWithDefault(let column, let conversion, let value):
            return "COALESCE(\(convert(conversion, sqlIdentifier(column))), \(literal(value)))"
        case .constant(let value): return literal(value)
        case .entityCodes(let column): return entityCodeCase(sqlIdentifier(column))
        case .impliedEntityCode(let key, let oldCode):
            return "CASE WHEN \(sqlIdentifier(key)) IS NULL THEN NULL ELSE \(mapping.entityDestination[oldCode].map(String.init) ?? "NULL") END"
        }
    }
}
