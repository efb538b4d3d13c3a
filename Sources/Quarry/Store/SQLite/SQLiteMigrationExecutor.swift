import GRDB

/// Runs one planned migration step (``MigrationStep``) on an SQLite store, inside the caller's
/// transaction, through the shared order of work (``SQLMigrationExecutor``): a table whose
/// rows stay in one old table and keep their stored form is altered in place (columns added,
/// renamed and dropped, defaults filled, entity codes renumbered); every other table keeping
/// rows is copied into a scratch table by chunked `INSERT … SELECT`s and swapped in. Keys
/// continue in `Z_PRIMARYKEY`.
///
/// Not thread-safe: it lives for one step of one migration, on the writer connection.
final class SQLiteMigrationExecutor: SQLMigrationExecutor {
    let step: MigrationStep
    let db: Database
    /// The new schema's statements (tables, join tables, indexes), made once for the step.
    private lazy var newSchema: [String] = step.newLayout.schemaStatements(model: step.destination)

    init(step: MigrationStep, db: Database) {
        self.step = step
        self.db = db
    }

    var altersInPlace: Bool { true }

    func execute(_ sql: String) throws { try db.execute(sql: sql) }

    func integer(_ sql: String) throws -> Int64 { try Int64.fetchOne(db, sql: sql) ?? 0 }

    func pairTable(_ i: Int) -> String { "temp.\(MigrationStep.scratchPrefix)PAIRS_\(i)" }

    func createPairTable(_ i: Int, as select: String) throws {
        try db.execute(sql: "CREATE TEMP TABLE \(pairTable(i)) AS \(select)")
    }

    /// The indexes the new schema does not have exactly so; persistent history's tables (and
    /// any index on them) are not the model's and stay as they are.
    func dropIndexes() throws {
        let wanted = Set(newSchema.filter(MigrationStep.isIndexStatement))
        let existing = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name NOT LIKE 'Z\\_HISTORY%' ESCAPE '\\'")
        for (name, sql) in existing.map({ ($0[0] as String, $0[1] as String) }) where !wanted.contains(sql) {
            try db.execute(sql: "DROP INDEX \(sqlIdentifier(name))")
        }
    }

    /// From `Z_PRIMARYKEY`.
    func keysHandedOut() throws -> [String: Int64] {
        var handedOut: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ROOT, Z_MAX FROM Z_PRIMARYKEY") {
            handedOut[row[0]] = row[1]
        }
        return handedOut
    }

    func createTable(_ t: Int) throws {
        try db.execute(sql: step.newLayout.createTableStatement(step.newLayout.tables[t]))
    }

    func createJoinTable(_ j: Int) throws {
        let prefix = "CREATE TABLE \(sqlIdentifier(step.newLayout.joinTables[j].name)) "
        if let create = newSchema.first(where: { $0.hasPrefix(prefix) }) {
            try db.execute(sql: create)
        }
    }

    func finishTables() throws {}

    func insertPairs(into join: String, from pairs: String) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO \(join) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) SELECT s, d, de, COALESCE(o, 0) FROM \(pairs)")
    }

    func createIndexes() throws {
        let existing = Set(try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
        for sql in newSchema where MigrationStep.isIndexStatement(sql) && !existing.contains(sql) {
            try db.execute(sql: sql)
        }
    }

    /// `Z_PRIMARYKEY`: a row per new table. Rows already as wanted are left alone, so a step
    /// that keeps every table's keys writes none of them.
    func setKeyFloors(_ floor: [Int64]) throws {
        let wanted = Dictionary(step.newLayout.tables.enumerated().map { ($1.name, floor[$0]) }, uniquingKeysWith: max)
        let stored = try keysHandedOut()
        for root in stored.keys where wanted[root] == nil {
            try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ROOT = ?", arguments: [root])
        }
        for table in step.newLayout.tables where stored[table.name] != wanted[table.name] {
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ROOT, Z_MAX) VALUES (?, ?) ON CONFLICT(Z_ROOT) DO UPDATE SET Z_MAX = excluded.Z_MAX",
                           arguments: [table.name, wanted[table.name]])
        }
    }

    // MARK: - Copies

    func copy(_ t: Int, sources: [(newEntity: Int, oldEntity: Int)], progress: MigrationProgressReporter) throws {
        let table = step.newLayout.tables[t]
        try db.execute(sql: step.newLayout.createTableStatement(table, name: scratchName(t)))
        let columnList = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map { sqlIdentifier($0.name) }).joined(separator: ", ")
        for (newEntity, oldEntity) in sources {
            let position = table.entityIndices.firstIndex(of: newEntity)!
            let oldTable = step.oldLayout.table(ofEntity: oldEntity)
            let offset = step.keyOffsets[oldEntity] ?? 0
            let values = ["Z_PK" + (offset == 0 ? "" : " + \(offset)"), String(newEntity), "Z_OPT"]
                + step.contents[t][position].map(expression)
            let filter = oldTable.entityIndices.count > 1 ? "Z_ENT = \(oldEntity) AND " : ""
            let from = sqlIdentifier(oldTable.name)
            let insert = try db.makeStatement(sql: """
                INSERT INTO \(sqlIdentifier(scratchName(t))) (\(columnList)) SELECT \(values.joined(separator: ", ")) \
                FROM \(from) WHERE \(filter)Z_PK > ? AND Z_PK <= ?
                """)
            let boundary = try db.makeStatement(sql: "SELECT Z_PK FROM \(from) WHERE \(filter)Z_PK > ? ORDER BY Z_PK LIMIT 1 OFFSET \(Self.copyChunk - 1)")
            var low = Int64.min
            while true {
                let high = try Int64.fetchOne(boundary, arguments: [low]) ?? Int64.max
                try insert.execute(arguments: [low, high])
                try progress.copied(db.changesCount, table: table.name)
                if high == Int64.max { break }
                low = high
            }
        }
    }

    /// Rows copied per statement: the grain of progress reports.
    static let copyChunk = 50_000

    /// The SQLite expression producing `content` from an old row.
    func expression(_ content: ColumnContent) -> String {
        step.expression(content, convert: { $0.sql($1) }, literal: \.sqlLiteral)
    }

    // MARK: - In place

    func alterInPlace(_ t: Int, oldTable o: Int) throws {
        let table = step.newLayout.tables[t]
        let old = step.oldLayout.tables[o]
        var name = old.name
        if old.name != table.name {
            try db.execute(sql: "ALTER TABLE \(sqlIdentifier(old.name)) RENAME TO \(sqlIdentifier(scratchName(t)))")
            name = scratchName(t)
        }
        let target = sqlIdentifier(name)
        let members = table.entityIndices
        let perEntity = step.contents[t]
        // Rows of old entities that leave the table (removed, or moved to another table by a copy).
        let staying = Set(members.compactMap { step.mapping.entitySource[$0] })
        let leaving = old.entityIndices.filter { !staying.contains($0) }
        if !leaving.isEmpty {
            try db.execute(sql: "DELETE FROM \(target) WHERE Z_ENT IN (\(leaving.map(String.init).joined(separator: ", ")))")
        }
        // Which old column feeds each new column.
        var feeds: [Int: String] = [:]
        for c in table.columns.indices {
            if let source = perEntity.lazy.compactMap({ $0[c].oldColumn }).first { feeds[c] = source }
        }
        let claimed = Set(feeds.values)
        for column in old.columns where !claimed.contains(column.name) {
            try dropIndexes(on: column.name, table: name)
            try db.execute(sql: "ALTER TABLE \(target) DROP COLUMN \(sqlIdentifier(column.name))")
        }
        // Renames in two phases, so columns may swap names.
        let renamed = feeds.filter { table.columns[$0.key].name != $0.value }
        for (c, source) in renamed {
            try db.execute(sql: "ALTER TABLE \(target) RENAME COLUMN \(sqlIdentifier(source)) TO \(sqlIdentifier("\(MigrationStep.scratchPrefix)\(c)"))")
        }
        for (c, _) in renamed {
            try db.execute(sql: "ALTER TABLE \(target) RENAME COLUMN \(sqlIdentifier("\(MigrationStep.scratchPrefix)\(c)")) TO \(sqlIdentifier(table.columns[c].name))")
        }
        // The old entities whose rows may hold a value in each old column (the others' are NULL).
        var oldUsers: [String: Set<Int>] = [:]
        for (key, position) in old.positions {
            oldUsers[old.columns[position].name, default: []].formUnion(step.source.entities[key.entity].selfAndDescendantIndices)
        }
        // Values: old codes still apply in WHERE clauses until Z_ENT is renumbered below.
        for (c, column) in table.columns.enumerated() {
            let quoted = sqlIdentifier(column.name)
            var addedWithDefault = false
            if feeds[c] == nil {
                // Every entity of the table gets the same added default: the column's DEFAULT
                // gives it to every row at once, whatever the table's size.
                let constants = Set(perEntity.map { content -> Value? in if case .constant(let v) = content[c] { return v }; return nil })
                if constants.count == 1, let value = constants.first! {
                    try db.execute(sql: "ALTER TABLE \(target) ADD COLUMN \(quoted) \(column.sqlType) DEFAULT \(value.sqlLiteral)")
                    addedWithDefault = true
                } else {
                    try db.execute(sql: "ALTER TABLE \(target) ADD COLUMN \(quoted) \(column.sqlType)")
                }
            }
            for (position, e) in members.enumerated() {
                guard let oldCode = step.mapping.entitySource[e] else { continue }
                let rows = old.entityIndices.count > 1 ? " AND Z_ENT = \(oldCode)" : ""
                switch perEntity[position][c] {
                case .oldWithDefault(_, _, let value):
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = \(value.sqlLiteral) WHERE \(quoted) IS NULL\(rows)")
                case .constant(let value) where !addedWithDefault:
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = \(value.sqlLiteral) WHERE 1\(rows)")
                case .null where feeds[c] != nil && oldUsers[feeds[c]!]?.contains(oldCode) != false:
                    // The column now belongs to another entity's attribute: this entity's old
                    // values go (an entity that never used the column has none: no statement).
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = NULL WHERE \(quoted) IS NOT NULL\(rows)")
                case .entityCodes where step.renumbersEntities:
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = \(step.entityCodeCase(quoted)) WHERE \(quoted) IS NOT NULL\(rows)")
                    if let key = keyColumn(ofEntityColumn: c, entity: e) {
                        // A destination whose entity was removed is gone: the key goes too.
                        try db.execute(sql: "UPDATE \(target) SET \(sqlIdentifier(key)) = NULL WHERE \(quoted) IS NULL AND \(sqlIdentifier(key)) IS NOT NULL\(rows)")
                    }
                case .impliedEntityCode:
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = \(expression(perEntity[position][c])) WHERE 1\(rows)")
                default:
                    break
                }
            }
        }
        if step.renumbersEntities {
            try db.execute(sql: "UPDATE \(target) SET Z_ENT = \(step.entityCodeCase("Z_ENT"))")
        }
    }

    /// The key column of the to-one whose `_ENT` column is `c`, for entity `e`.
    private func keyColumn(ofEntityColumn c: Int, entity e: Int) -> String? {
        guard let columns = step.newLayout.entities[e].toOne.first(where: { $0?.entity == c }) ?? nil else { return nil }
        return step.newLayout.table(ofEntity: e).columns[columns.key].name
    }

    private func dropIndexes(on column: String, table: String) throws {
        let indexes = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?)", arguments: [table])
        for index in indexes {
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index])
            if columns.contains(where: { $0.caseInsensitiveCompare(column) == .orderedSame }) && !index.hasPrefix("sqlite_") {
                try db.execute(sql: "DROP INDEX \(sqlIdentifier(index))")
            }
        }
    }
}
