import GRDB

/// A store that runs the batch updates that qualify (``SetBasedBatchUpdate``) as one statement.
protocol SetBasedBatchUpdating {
    /// Runs `update` in one transaction, with its persistent history; returns `nil`, having
    /// written nothing, when a value the statement computed is one the computed path would
    /// refuse (the request then takes that path, which names it).
    func runSetBased(_ update: SetBasedBatchUpdate, author: String) throws -> StoreSaveResult?
}

extension SQLiteStore: SetBasedBatchUpdating {
    /// `UPDATE T AS t0 SET …, Z_OPT = Z_OPT + 1 WHERE <the request's compiled predicate>
    /// RETURNING Z_PK, Z_ENT, <the new values>` (rows chosen by `Z_PK IN (<compiled select>)`
    /// when the predicate reads through a to-one): SQLite computes and writes every row in one
    /// pass (no row is read into Swift first, so no version can be stale and nothing
    /// conflicts); the new values are checked, the objects recorded as the save's changes (IDs
    /// and changed keys, as Core Data's batch update reports them: a merge refreshes registered
    /// objects and decides the others from the changed keys, reading the store only when they
    /// matter), and written to persistent history as runs of keys.
    func runSetBased(_ update: SetBasedBatchUpdate, author: String) throws -> StoreSaveResult? {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        let entity = update.plan.query.entity
        let tableIndex = layout.entities[entity.index].tableIndex
        let table = layout.tables[tableIndex]
        func column(_ name: String) -> String {
            let position = layout.entities[entity.index].attributeColumns[entity.attributeIndex(name)!]!
            return sqlIdentifier(table.columns[position].name)
        }
        var constants: [Value] = []
        var sets: [String] = []
        for assignment in update.assignments {
            switch assignment.form {
            case .constant(let value):
                constants.append(value)
                sets.append("\(column(assignment.attribute.name)) = ?")
            case .arithmetic(let expression):
                sets.append("\(column(assignment.attribute.name)) = \(SetBasedBatchUpdate.sql(expression, column: column, constants: &constants))")
            }
        }
        sets.append("Z_OPT = Z_OPT + 1")
        var compiler = queryCompiler()
        let select = try compiler.select(update.plan.query, columns: ["t0.Z_PK"])
        let returned = (["Z_PK", "Z_ENT"] + update.assignments.map { column($0.attribute.name) }).joined(separator: ", ")
        var sql = "UPDATE \(sqlIdentifier(table.name)) AS t0 SET \(sets.joined(separator: ", "))"
        var arguments = StatementArguments(constants.map(SQLiteDialect.databaseValue))
        if !select.joins.isEmpty {
            // Key paths through to-ones: the rows are chosen by the compiled select.
            let (text, selectArguments) = select.sql
            sql += " WHERE Z_PK IN (\(text))"
            arguments += selectArguments
        } else if let (condition, conditionArguments) = select.condition {
            // The predicate reads the row itself: one pass, as a hand-written UPDATE … WHERE.
            sql += " WHERE " + condition
            arguments += conditionArguments
        }
        sql += " RETURNING \(returned)"
        do {
            return try pool.writeWithoutTransaction { db in
                var result: StoreSaveResult?
                try Self.withWriteCache(db, rows: Self.largeSaveRows) {
                    try db.inTransaction(.immediate) {
                        let prepared = try db.makeStatement(sql: sql)
                        try prepared.setArguments(arguments)
                        let statement = SQLiteRawStatement(prepared)
                        defer { statement.reset() }
                        var ids: [ObjectID] = []
                        var values = [Value](repeating: .null, count: update.assignments.count)
                        while try statement.step() {
                            for (k, assignment) in update.assignments.enumerated() {
                                values[k] = try statement.value(at: Int32(2 + k), of: assignment.attribute)
                            }
                            guard update.accepts(values) else { return .rollback }
                            ids.append(ObjectID(entityIndex: Int(statement.int64(at: 1)), primaryKey: statement.int64(at: 0)))
                        }
                        // In key order, as the computed path reports them (and as history runs need).
                        ids.sort { $0.primaryKey < $1.primaryKey }
                        var saved = StoreSaveResult()
                        var memo = ChangedKeysMemo()
                        for id in ids {
                            saved.changes.recordUpdate(id, changed: update.plan.mask(of: id), of: model.entities[Int(id.entityIndex)], memo: &memo)
                        }
                        if recordsHistory && !saved.changes.isEmpty {
                            let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                            saved.historyToken = try writer.record(saved.changes, tombstones: [:], author: author, db: db)
                        }
                        if !ids.isEmpty { try Self.bumpModificationToken(db) }
                        result = saved
                        return .commit
                    }
                }
                return result
            }
        } catch {
            throw Self.storeError(error, path: path, entity: entity.name)
        }
    }
}
