import GRDB

/// A store that runs the batch updates that qualify (``SetBasedBatchUpdate``) as one statement.
protocol SetBasedBatchUpdating {
    /// Runs `update` in one transaction, with its persistent history; returns `nil`, having
    /// written nothing, when a value the statement computed is one the computed path would
    /// refuse (the request then takes that path, which names it).
    func runSetBased(_ update: SetBasedBatchUpdate, author: String) throws -> StoreSaveResult?
}

extension SQLiteStore: SetBasedBatchUpdating {
    /// `UPDATE T SET … , Z_OPT = Z_OPT + 1 WHERE Z_PK IN (<the request's compiled select>)
    /// RETURNING <the row>`: SQLite computes and writes every row in one pass (no row is read
    /// into Swift first, so no version can be stale and nothing conflicts); the returned rows
    /// are checked, recorded as the save's changes (the state each object now has, for merges)
    /// and written to persistent history as runs of keys.
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
        let (select, selectArguments) = try compiler.select(update.plan.query, columns: ["t0.Z_PK"]).sql
        let returned = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map { sqlIdentifier($0.name) }).joined(separator: ", ")
        let sql = "UPDATE \(sqlIdentifier(table.name)) SET \(sets.joined(separator: ", ")) WHERE Z_PK IN (\(select)) RETURNING \(returned)"
        var arguments = StatementArguments(constants.map(SQLiteDialect.databaseValue))
        arguments += selectArguments
        let reader = SQLiteRowReader(layout: layout, statements: statements, model: model)
        do {
            return try pool.writeWithoutTransaction { db in
                var result: StoreSaveResult?
                try Self.withWriteCache(db, rows: Self.largeSaveRows) {
                    try db.inTransaction(.immediate) {
                        let prepared = try db.makeStatement(sql: sql)
                        try prepared.setArguments(arguments)
                        let statement = SQLiteRawStatement(prepared)
                        defer { statement.reset() }
                        var rows: [(id: ObjectID, snapshot: Snapshot)] = []
                        while try statement.step() {
                            let row = try reader.decodeRow(statement)
                            guard update.accepts(row.1, entity: model.entities[Int(row.0.entityIndex)]) else { return .rollback }
                            rows.append(row)
                        }
                        // In key order, as the computed path reports them (and as history runs need).
                        rows.sort { $0.id.primaryKey < $1.id.primaryKey }
                        var saved = StoreSaveResult()
                        saved.written.reserveCapacity(rows.count)
                        var memo = ChangedKeysMemo()
                        for (id, snapshot) in rows {
                            saved.written[id] = snapshot
                            saved.changes.recordUpdate(id, changed: update.plan.mask(of: id), of: model.entities[Int(id.entityIndex)],
                                                       stored: snapshot, memo: &memo)
                        }
                        if recordsHistory && !saved.changes.isEmpty {
                            let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                            saved.historyToken = try writer.record(saved.changes, tombstones: [:], author: author, db: db)
                        }
                        if !rows.isEmpty { try Self.bumpModificationToken(db) }
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
