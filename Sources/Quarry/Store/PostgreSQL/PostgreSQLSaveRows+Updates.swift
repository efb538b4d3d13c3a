import Foundation

/// Runs of versioned updates in one round trip.
extension PostgreSQLSaveRows {
    /// One versioned `UPDATE … FROM (VALUES …)` for `run` (one shape, distinct objects);
    /// returns the primary keys of the rows it updated (those whose `Z_OPT` still was the
    /// version each change was made from).
    func updateRows(_ run: ArraySlice<ObjectChange>, shape: SQLUpdateShape) throws -> Set<Int64> {
        let columns = update(shape).columns
        var b = PGBindings(capacity: run.count * (2 + PostgreSQLValues.bindCount(columns)))
        for change in run {
            b.append(change.id.primaryKey)
            b.append(change.snapshot.version)
            PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
        }
        var updated: Set<Int64> = []
        try connection.forEachRow(batchUpdateSQL(entity: shape.entity, columns: columns, rows: run.count), b) { row in
            if let key = try PostgreSQLValues.integer(row[0]) { updated.insert(key) }
        }
        return updated
    }

    /// `UPDATE t SET … FROM (VALUES ($1::bigint, $2::bigint, …), …) v WHERE t."Z_PK" = v."pk"
    /// AND t."Z_OPT" = v."opt" RETURNING t."Z_PK"`. Every parameter is cast to its column's
    /// declared type (`text COLLATE "C"` included), so a `NULL` bind and the rows' types agree.
    func batchUpdateSQL(entity e: Int, columns: [PostgreSQLLayout.SlotColumn], rows: Int) -> String {
        let names = PostgreSQLLayout.columnList(columns)
        let types = ["bigint", "bigint"] + columns.flatMap { c in
            [c.kind.declaration] + (c.shadowed ? [PostgreSQLLayout.Kind.text, .text, .text, .text, .blob].map(\.declaration) : [])
        }
        let aliases = ["\"pk\"", "\"opt\""] + names.indices.map { "\"c\($0)\"" }
        var sql = "UPDATE \(PostgreSQLLayout.q(layout.slots.tableName[e])) AS t SET "
        for (name, alias) in zip(names, aliases.dropFirst(2)) { sql += "\(name) = v.\(alias), " }
        sql += "\"Z_OPT\" = t.\"Z_OPT\" + 1 FROM (VALUES "
        sql.reserveCapacity(sql.utf8.count + rows * types.count * 16)
        var n = 0
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for (i, type) in types.enumerated() {
                n += 1
                sql += i == 0 ? "$\(n)::\(type)" : ", $\(n)::\(type)"
            }
            sql += ")"
        }
        sql += ") AS v (\(aliases.joined(separator: ", "))) WHERE t.\"Z_PK\" = v.\"pk\" AND t.\"Z_OPT\" = v.\"opt\" RETURNING t.\"Z_PK\""
        return sql
    }
}
