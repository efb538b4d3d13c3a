import GRDB

/// A piece of SQL with its bound arguments: a `WHERE` term today, a compiled predicate later.
struct SQLiteFragment {
    var sql: String
    var arguments: StatementArguments = []
    /// The value of a fragment that is one bound constant (`?`), so a long `IN` list can be
    /// bound as one JSON array instead (``SQLiteInList``).
    var constant: DatabaseValue? = nil
}

/// A `SELECT` over one root table, assembled from parts so the query layer can add a compiled
/// predicate (another ``filters`` entry) and sort terms (``ordering``, ahead of the `Z_PK`
/// tie-breaker) without touching the rest.
struct SQLiteSelect {
    /// The root table.
    var table: String
    /// The table's alias (`t0` for compiled queries).
    var alias: String?
    /// `JOIN` clauses after the table.
    var joins: [String] = []
    /// The result columns (SQL expressions).
    var columns: [String]
    /// Terms joined with `AND`.
    var filters: [SQLiteFragment] = []
    /// `ORDER BY` terms, most significant first.
    var ordering: [String] = []
    /// The largest number of rows (0: no limit).
    var limit = 0
    /// How many leading rows are skipped.
    var offset = 0

    /// The statement text and its arguments.
    var sql: (text: String, arguments: StatementArguments) {
        var text = "SELECT \(columns.joined(separator: ", ")) FROM \(sqlIdentifier(table))"
        if let alias { text += " \(alias)" }
        for join in joins { text += " " + join }
        var arguments = StatementArguments()
        if !filters.isEmpty {
            text += " WHERE " + filters.map { filters.count > 1 ? "(\($0.sql))" : $0.sql }.joined(separator: " AND ")
            for f in filters { arguments += f.arguments }
        }
        if !ordering.isEmpty { text += " ORDER BY " + ordering.joined(separator: ", ") }
        if limit > 0 || offset > 0 { text += " LIMIT \(limit > 0 ? limit : -1)" }
        if offset > 0 { text += " OFFSET \(offset)" }
        return (text, arguments)
    }

    /// The same selection counted instead of listed (ordering dropped; limit and offset kept).
    var countSQL: (text: String, arguments: StatementArguments) {
        var inner = self
        inner.ordering = []
        if limit == 0 && offset == 0 {
            inner.columns = ["COUNT(*)"]
            return inner.sql
        }
        inner.columns = ["1"]
        let (text, arguments) = inner.sql
        return ("SELECT COUNT(*) FROM (\(text))", arguments)
    }
}

/// Helpers shared by queries over a root table (the full compiler is ``SQLiteQueryCompiler``).
struct SQLiteQueryBuilder {
    let layout: StoreLayout

    /// The `Z_ENT` term selecting the query's entities, or `nil` when they fill the table.
    func entityFilter(_ query: StoreQuery, table: StoreLayout.Table, alias: String) -> SQLiteFragment? {
        let entities = query.includesSubentities ? query.entity.selfAndDescendantIndices : [query.entity.index]
        if Set(entities) == Set(table.entityIndices) { return nil }
        if entities.count == 1 { return SQLiteFragment(sql: "\(alias).Z_ENT = \(entities[0])") }
        return SQLiteFragment(sql: "\(alias).Z_ENT IN (\(entities.map(String.init).joined(separator: ", ")))")
    }
}
