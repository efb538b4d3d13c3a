/// What a migration step's checks and row counts read from the old store: the same checks
/// (missing values, duplicates under a new uniqueness constraint, rows per entity) run on the
/// SQLite and the PostgreSQL store, each answering in its own dialect.
protocol MigrationDataReader {
    /// The single integer `sql` (a `SELECT COUNT(*) …`) returns; 0 for no row.
    func count(_ sql: String) throws -> Int
    /// Every row of `sql`, each cell as shown in an error message.
    func rows(_ sql: String) throws -> [[String]]
    /// `value` in its stored form as a literal of the store's dialect.
    func literal(_ value: Value) -> String
}
