/// A `SELECT` over one root table under alias `t0`, assembled from parts by
/// ``SQLQueryCompiler`` and written in `Dialect`'s SQL.
struct SQLSelect<Dialect: SQLDialect> {
    /// The root table.
    var table: String
    /// The result columns (SQL expressions over `t0`).
    var columns: [String]
    /// `JOIN` clauses after the table.
    var joins: [String] = []
    /// Terms joined with `AND`.
    var filters: [SQLFragment<Dialect.Arguments>] = []
    /// `ORDER BY` terms, most significant first.
    var ordering: [String] = []
    /// The largest number of rows (0: no limit).
    var limit = 0
    /// How many leading rows are skipped.
    var offset = 0

    /// The statement text and the arguments of its placeholders.
    var sql: (text: String, arguments: Dialect.Arguments) {
        var text = "SELECT \(columns.joined(separator: ", ")) FROM \(Dialect.identifier(table)) t0"
        for join in joins { text += " " + join }
        var arguments = Dialect.Arguments()
        if let (condition, conditionArguments) = condition {
            text += " WHERE " + condition
            arguments = conditionArguments
        }
        if !ordering.isEmpty { text += " ORDER BY " + ordering.joined(separator: ", ") }
        text += Dialect.window(limit: limit, offset: offset)
        return (text, arguments)
    }

    /// The `WHERE` condition alone and its arguments (`nil` when every row qualifies): also
    /// for a statement over the root table under `t0` that needs no join.
    var condition: (text: String, arguments: Dialect.Arguments)? {
        guard !filters.isEmpty else { return nil }
        var arguments = Dialect.Arguments()
        for f in filters { arguments += f.arguments }
        return (filters.map { filters.count > 1 ? "(\($0.sql))" : $0.sql }.joined(separator: " AND "), arguments)
    }

    /// The same selection counted instead of listed (ordering dropped; limit and offset kept).
    var countSQL: (text: String, arguments: Dialect.Arguments) {
        var inner = self
        inner.ordering = []
        if limit == 0 && offset == 0 {
            inner.columns = ["COUNT(*)"]
            return inner.sql
        }
        inner.columns = ["1"]
        let (text, arguments) = inner.sql
        return ("SELECT COUNT(*) FROM (\(text)) c", arguments)
    }
}
