import GRDB
import GRDBSQLite

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

    /// One statement in an `IMMEDIATE` transaction: `UPDATE T AS t0 SET …, Z_OPT = Z_OPT + 1
    /// WHERE <the request's compiled predicate>` (rows chosen by `Z_PK IN (<compiled select>)`
    /// when the predicate reads through a to-one) computes and writes every row in one pass, as
    /// a hand-written statement does; the first value goes through ``SetBasedRowCollector``,
    /// which notes each row's key and checks its new values against the model (a refusal stops
    /// the statement, and the transaction rolls back). No row is read into Swift beforehand, so
    /// no version can be stale and nothing conflicts. The objects are recorded as
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
        // Each new value's SQL over `t0`, with its constants (bound in order of the text).
        var constants: [Value] = []
        func value(_ assignment: SetBasedBatchUpdate.Assignment) -> String {
            switch assignment.form {
            case .constant(let v):
                constants.append(v)
                return "?"
            case .arithmetic(let expression):
                return SetBasedBatchUpdate.sql(expression, column: column, constants: &constants)
            }
        }
        // The first column's value goes through `quarry_batch_row`, which sees each updated
        // row once (its key and every new value) and returns that value unchanged.
        let all = update.assignments.map(value).joined(separator: ", ")
        var sets = ["\(name(update.assignments[0].attribute.name)) = \(SetBasedRowCollector.function)(t0.Z_PK, t0.Z_ENT, \(all))"]
        for assignment in update.assignments.dropFirst() { sets.append("\(name(assignment.attribute.name)) = \(value(assignment))") }
        sets.append("Z_OPT = Z_OPT + 1")
        var compiler = queryCompiler()
        var select = try compiler.select(update.plan.query, columns: ["t0.Z_PK"])
        select.ordering = []
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
        let collector = SetBasedRowCollector(update)
        do {
            return try pool.writeWithoutTransaction { db in
                var result: StoreSaveResult?
                try Self.withWriteCache(db, rows: Self.largeSaveRows) {
                    try db.inTransaction(.immediate) {
                        do {
                            try collector.defined(on: db) { try db.execute(sql: sql, arguments: arguments) }
                        } catch where collector.refused {
                            return .rollback
                        }
                        var ids = collector.ids
                        guard !ids.isEmpty else {
                            result = StoreSaveResult()
                            return .commit
                        }
                        guard db.changesCount == ids.count else {
                            throw StoreError.sqlite(path: path, code: 0, message: "a batch update saw \(ids.count) rows and updated \(db.changesCount)")
                        }
                        // In key order, as the computed path reports them (and as history runs need).
                        ids.sort { $0.primaryKey < $1.primaryKey }
                        var saved = StoreSaveResult()
                        saved.changes.reserveUpdates(ids.count)
                        var memo = ChangedKeysMemo()
                        // Up to `carriedStateLimit` objects the changes carry their new state, read back
                        // here, so a merge decides them without the store; beyond, reading every row
                        // back would cost more than the merges it saves.
                        let stored = ids.count <= Self.carriedStateLimit
                            ? try SQLiteRowReader(layout: layout, statements: statements, model: model).snapshots(for: ids, db: db) : [:]
                        let carries = stored.count == ids.count
                        for id in ids {
                            let entity = model.entities[Int(id.entityIndex)]
                            if carries, let snapshot = stored[id] {
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

/// `quarry_batch_row(Z_PK, Z_ENT, v1, v2, …)` for one set-based batch update: notes each
/// updated row's object ID, checks its new values (``SetBasedBatchUpdate/accepts(_:)``) and
/// returns `v1` unchanged; a value the computed path would refuse fails the statement.
///
/// Registered through SQLite's C API, not as a GRDB `DatabaseFunction`: it runs once per
/// updated row (100,000 times in the `batch-update` benchmark), and reading the arguments
/// straight from their `sqlite3_value`s spares an array of `DatabaseValue`s and a closure
/// call per row, about half the statement's own time.
final class SetBasedRowCollector: @unchecked Sendable {
    // Used by one statement on the writer connection, which runs it on one thread (GRDB's
    // writer queue); read after the statement, on the same queue.
    static let function = "quarry_batch_row"

    private let update: SetBasedBatchUpdate
    /// The positions of the assignments computed per row (constants were checked once).
    private let computed: [Int]
    /// The updated rows, in the order SQLite reached them.
    private(set) var ids: [ObjectID] = []
    /// Whether a new value was refused (the statement then failed).
    private(set) var refused = false
    private var row: [Value]

    init(_ update: SetBasedBatchUpdate) {
        self.update = update
        computed = update.assignments.indices.filter {
            if case .arithmetic = update.assignments[$0].form { return true } else { return false }
        }
        row = update.assignments.map { if case .constant(let v) = $0.form { return v } else { return .null } }
    }

    /// Runs `body` (the statement) with the function defined on `db`'s connection, and
    /// removes it after.
    func defined<T>(on db: Database, _ body: () throws -> T) throws -> T {
        let connection = db.sqliteConnection
        let argumentCount = Int32(2 + update.assignments.count)
        let code = sqlite3_create_function_v2(
            connection, Self.function, argumentCount, SQLITE_UTF8 | SQLITE_DIRECTONLY,
            Unmanaged.passUnretained(self).toOpaque(),
            { context, _, arguments in
                // The collector outlives the statement (`withExtendedLifetime` below).
                let collector = Unmanaged<SetBasedRowCollector>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                collector.take(context, arguments!)
            },
            nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
        defer { sqlite3_create_function_v2(connection, Self.function, argumentCount, SQLITE_UTF8, nil, nil, nil, nil, nil) }
        return try withExtendedLifetime(self) { try body() }
    }

    /// One updated row: its key, entity and new values in `arguments`.
    private func take(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        for k in computed {
            let argument = arguments[2 + k]
            switch sqlite3_value_type(argument) {
            case SQLITE_FLOAT: row[k] = .double(sqlite3_value_double(argument))
            case SQLITE_INTEGER: row[k] = .double(Double(sqlite3_value_int64(argument)))
            case SQLITE_NULL: row[k] = .null
            default: return refuse(context)
            }
        }
        guard update.accepts(row), sqlite3_value_type(arguments[0]) == SQLITE_INTEGER,
              sqlite3_value_type(arguments[1]) == SQLITE_INTEGER else { return refuse(context) }
        ids.append(ObjectID(entityIndex: Int(sqlite3_value_int64(arguments[1])), primaryKey: sqlite3_value_int64(arguments[0])))
        sqlite3_result_value(context, arguments[2])
    }

    /// Fails the statement (which then rolls back): the computed path names the value.
    private func refuse(_ context: OpaquePointer?) {
        refused = true
        sqlite3_result_error(context, "a batch update value the computed path checks", -1)
    }
}
