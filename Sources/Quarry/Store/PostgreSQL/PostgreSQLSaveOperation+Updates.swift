#if PostgreSQL
import Foundation
import PostgresNIO

extension PostgreSQLSaveOperation {
    /// Writes `updates` in order; returns the objects whose to-many changes a conflict
    /// resolution dropped.
    ///
    /// Runs of consecutive updates of one entity writing the same columns go in one round trip
    /// (``batchUpdate(_:columns:connection:)``); the rows it did not update (their `Z_OPT`
    /// moved on, or they are gone) then take the one-row conflict path in their order, so the
    /// merge policy sees the same conflicts, in the same order, as with one `UPDATE` per row.
    func updateAll(_ updates: [ObjectChange], connection: PostgreSQLConnection) throws -> Set<ObjectID> {
        var skipToMany = Set<ObjectID>()
        var start = 0
        while start < updates.count {
            let first = updates[start]
            let columns = updateColumns(first)
            let names = PostgreSQLLayout.columnList(columns)
            let perRow = 2 + PostgreSQLValues.bindCount(columns)
            let maxRows = max(1, Self.parameterBudget / perRow)
            var ids: Set<ObjectID> = [first.id]
            var end = start + 1
            while end < updates.count, end - start < maxRows, updates[end].id.entityIndex == first.id.entityIndex,
                  !ids.contains(updates[end].id), PostgreSQLLayout.columnList(updateColumns(updates[end])) == names {
                ids.insert(updates[end].id)
                end += 1
            }
            let run = updates[start..<end]
            if run.count == 1 {
                if try !update(first, connection: connection) { skipToMany.insert(first.id) }
            } else {
                let updated = try batchUpdate(run, columns: columns, connection: connection)
                for change in run {
                    if updated.contains(change.id.primaryKey) {
                        recordUpdated(change)
                    } else if try !resolveUpdateConflict(change, connection: connection) {
                        skipToMany.insert(change.id)
                    }
                }
            }
            start = end
        }
        return skipToMany
    }

    /// One versioned `UPDATE … FROM (VALUES …)` for `run` (one entity, the same `columns`,
    /// distinct objects); returns the primary keys of the rows it updated (those whose `Z_OPT`
    /// still was the version each change was made from).
    func batchUpdate(_ run: ArraySlice<ObjectChange>, columns: [PostgreSQLLayout.SlotColumn],
                     connection: PostgreSQLConnection) throws -> Set<Int64> {
        let e = Int(run.first!.id.entityIndex)
        currentEntity = e
        var b = PostgresBindings(capacity: run.count * (2 + PostgreSQLValues.bindCount(columns)))
        for change in run {
            b.append(change.id.primaryKey)
            b.append(change.snapshot.version)
            PostgreSQLValues.append(columns, of: change.snapshot, to: &b)
        }
        let sink = PostgreSQLRowSink<Int64>()
        try connection.forEachRow(batchUpdateSQL(entity: e, columns: columns, rows: run.count), b) { row in
            if let key = PostgreSQLValues.integer(row.makeRandomAccess()[0]) { sink.items.append(key) }
        }
        return Set(sink.items)
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
        var sql = "UPDATE \(PostgreSQLLayout.q(layout.statements.tableName[e])) AS t SET "
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
#endif
