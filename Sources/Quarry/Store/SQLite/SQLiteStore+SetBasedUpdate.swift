import GRDB

/// A store that runs the batch updates that qualify (``SetBasedBatchUpdate``) as one statement.
protocol SetBasedBatchUpdating {
    /// Runs `update` in one transaction, with its persistent history; returns `nil`, having
    /// written nothing, when a value the statement would compute is one the computed path would
    /// refuse (the request then takes that path, which names it).
    func runSetBased(_ update: SetBasedBatchUpdate, author: String) throws -> StoreSaveResult?
}

extension SQLiteStore: SetBasedBatchUpdating {
    /// How many objects a set-based batch update reads back, so that its changes carry their
    /// new state (``SaveChanges/carriesSnapshots``).
    static let carriedStateLimit = 10_000

    /// In one `IMMEDIATE` transaction (no other writer between its two statements):
    /// `SELECT t0.Z_PK, t0.Z_ENT, <the new values> FROM T t0 … WHERE <the request's compiled
    /// predicate>` lists the objects and checks every new value against the model, then
    /// `UPDATE T AS t0 SET …, Z_OPT = Z_OPT + 1 WHERE <the same predicate>` (rows chosen by
    /// `Z_PK IN (<compiled select>)` when the predicate reads through a to-one) computes and
    /// writes them in one pass, as a hand-written statement does. No row is read into Swift
    /// beforehand, so no version can be stale and nothing conflicts. The objects are recorded as
    /// the save's changes — with their new state up to ``carriedStateLimit`` objects, else IDs
    /// and changed keys only, as Core Data's batch update reports them (a merge then refreshes
    /// registered objects and decides the others from the changed keys, reading the store only
    /// when they matter) — and in persistent history as runs of keys.
    func runSetBased(_ update: SetBasedBatchUpdate, author: String) throws -> StoreSaveResult? {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        let entity = update.plan.query.entity
        let table = layout.tables[layout.entities[entity.index].tableIndex]
        func name(_ attribute: String) -> String {
            let position = layout.entities[entity.index].attributeColumns[entity.attributeIndex(attribute)!]!
            return sqlIdentifier(table.columns[position].name)
        }
        func column(_ attribute: String) -> String { "t0." + name(attribute) }
        // Each new value's SQL over `t0`, with its constants (bound in order).
        var values: [String] = []
        var constants: [Value] = []
        for assignment in update.assignments {
            switch assignment.form {
            case .constant(let value):
                constants.append(value)
                values.append("?")
            case .arithmetic(let expression):
                values.append(SetBasedBatchUpdate.sql(expression, column: column, constants: &constants))
            }
        }
        var compiler = queryCompiler()
        var select = try compiler.select(update.plan.query, columns: ["t0.Z_PK", "t0.Z_ENT"] + values)
        select.ordering = []
        let (listing, listingArguments) = select.sql
        var listArguments = StatementArguments(constants.map(SQLiteDialect.databaseValue))
        listArguments += listingArguments

        let sets = zip(update.assignments, values).map { "\(name($0.attribute.name)) = \($1)" } + ["Z_OPT = Z_OPT + 1"]
        var sql = "UPDATE \(sqlIdentifier(table.name)) AS t0 SET \(sets.joined(separator: ", "))"
        var arguments = StatementArguments(constants.map(SQLiteDialect.databaseValue))
        if !select.joins.isEmpty {
            // Key paths through to-ones: the rows are chosen by the compiled select.
            select.columns = ["t0.Z_PK"]
            let (text, selectArguments) = select.sql
            sql += " WHERE Z_PK IN (\(text))"
            arguments += selectArguments
        } else if let (condition, conditionArguments) = select.condition {
            // The predicate reads the row itself: one pass, as a hand-written UPDATE … WHERE.
            sql += " WHERE " + condition
            arguments += conditionArguments
        }
        do {
            return try pool.writeWithoutTransaction { db in
                var result: StoreSaveResult?
                try Self.withWriteCache(db, rows: Self.largeSaveRows) {
                    try db.inTransaction(.immediate) {
                        let prepared = try db.makeStatement(sql: listing)
                        try prepared.setArguments(listArguments)
                        let statement = SQLiteRawStatement(prepared)
                        defer { statement.reset() }
                        var ids: [ObjectID] = []
                        var row = [Value](repeating: .null, count: update.assignments.count)
                        while try statement.step() {
                            for (k, assignment) in update.assignments.enumerated() {
                                row[k] = try statement.value(at: Int32(2 + k), of: assignment.attribute)
                            }
                            guard update.accepts(row) else { return .rollback }
                            ids.append(ObjectID(entityIndex: Int(statement.int64(at: 1)), primaryKey: statement.int64(at: 0)))
                        }
                        guard !ids.isEmpty else {
                            result = StoreSaveResult()
                            return .commit
                        }
                        try db.execute(sql: sql, arguments: arguments)
                        guard db.changesCount == ids.count else {
                            throw StoreError.sqlite(path: path, code: 0, message: "a batch update listed \(ids.count) rows and updated \(db.changesCount)")
                        }
                        // In key order, as the computed path reports them (and as history runs need).
                        ids.sort { $0.primaryKey < $1.primaryKey }
                        var saved = StoreSaveResult()
                        var memo = ChangedKeysMemo()
                        // Up to `carriedStateLimit` objects the changes carry their new state, read back
                        // here, so a merge decides them without the store; beyond, reading every row
                        // back would cost more than the merges it saves.
                        let stored = ids.count <= Self.carriedStateLimit
                            ? try SQLiteRowReader(layout: layout, statements: statements, model: model).snapshots(for: ids, db: db) : [:]
                        for id in ids {
                            let entity = model.entities[Int(id.entityIndex)]
                            if stored.count == ids.count, let snapshot = stored[id] {
                                saved.written[id] = snapshot
                                saved.changes.recordUpdate(id, changed: update.plan.mask(of: id), of: entity, stored: snapshot, memo: &memo)
                            } else {
                                saved.changes.recordUpdate(id, changed: update.plan.mask(of: id), of: entity, memo: &memo)
                            }
                        }
                        if recordsHistory {
                            let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                            saved.historyToken = try writer.record(saved.changes, tombstones: [:], author: author, db: db)
                        }
                        try Self.bumpModificationToken(db)
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
