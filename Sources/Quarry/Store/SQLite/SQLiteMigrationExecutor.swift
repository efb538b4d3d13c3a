import GRDB

extension MigrationStep {
    /// Prefix of the tables a migration builds before swapping them in. A store never has
    /// tables of that name outside a migration's transaction.
    static let scratchPrefix = "Z_MIGRATION_"

    /// Runs the step on `db`, inside the caller's transaction: on any error the caller rolls
    /// back and the store is as it was. Copies report their rows to `progress`.
    func execute(_ db: Database, path: String, progress: MigrationProgressReporter) throws {
        let pairs = RelationshipPairs(step: self)
        // 1. Relationship pairs, read while every old table is still as it was.
        for (i, transfer) in transfers.enumerated() {
            try db.execute(sql: "CREATE TEMP TABLE \(pairTable(i)) AS \(pairs.select(transfer))")
        }
        // 2. Indexes the new schema does not have exactly so (rebuilt at the end); persistent
        //    history's tables (and any index on them) are not the model's and stay as they are.
        let wantedIndexes = Set(newLayout.schemaStatements(model: destination).filter(Self.isIndexStatement))
        for (name, sql) in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name NOT LIKE 'Z\\_HISTORY%' ESCAPE '\\'").map({ ($0[0] as String, $0[1] as String) })
        where !wantedIndexes.contains(sql) {
            try db.execute(sql: "DROP INDEX \(sqlIdentifier(name))")
        }
        // 3. Copies, into scratch tables.
        for (t, migration) in tables.enumerated() {
            if case .copy(let sources) = migration { try copy(t, sources: sources, db: db, progress: progress) }
        }
        // 4. Tables altered in place (renamed to scratch names when their name changes, so two
        //    tables may swap names).
        for (t, migration) in tables.enumerated() {
            guard let o = migration.inPlaceTable else { continue }
            try alterInPlace(t, oldTable: o, db: db)
        }
        // 5. Old tables nothing keeps are dropped; scratch tables take their final names.
        let kept = Set(tables.compactMap(\.inPlaceTable))
        for (o, old) in oldLayout.tables.enumerated() where !kept.contains(o) {
            try db.execute(sql: "DROP TABLE \(sqlIdentifier(old.name))")
        }
        try joinTables(db)
        for (t, table) in newLayout.tables.enumerated() {
            if case .create = tables[t] {
                try db.execute(sql: newLayout.createTableStatement(table))
            } else if scratchName(t) != table.name, try db.tableExists(scratchName(t)) {
                try db.execute(sql: "ALTER TABLE \(sqlIdentifier(scratchName(t))) RENAME TO \(sqlIdentifier(table.name))")
            }
        }
        // 6. Relationship contents whose storage changed.
        for (i, transfer) in transfers.enumerated() {
            try apply(transfer, from: pairTable(i), db: db, path: path)
            try db.execute(sql: "DROP TABLE \(pairTable(i))")
        }
        // 7. Missing indexes, then key allocation.
        let existing = Set(try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
        for sql in newLayout.schemaStatements(model: destination) where Self.isIndexStatement(sql) && !existing.contains(sql) {
            try db.execute(sql: sql)
        }
        try primaryKeys(db)
    }

    static func isIndexStatement(_ sql: String) -> Bool {
        sql.hasPrefix("CREATE INDEX") || sql.hasPrefix("CREATE UNIQUE INDEX")
    }

    private func pairTable(_ i: Int) -> String { "temp.\(Self.scratchPrefix)PAIRS_\(i)" }
    private func scratchName(_ t: Int) -> String { "\(Self.scratchPrefix)\(t)" }

    // MARK: - Copies

    private func copy(_ t: Int, sources: [(newEntity: Int, oldEntity: Int)], db: Database, progress: MigrationProgressReporter) throws {
        let table = newLayout.tables[t]
        try db.execute(sql: newLayout.createTableStatement(table, name: scratchName(t)))
        let columnList = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map { sqlIdentifier($0.name) }).joined(separator: ", ")
        for (newEntity, oldEntity) in sources {
            let position = table.entityIndices.firstIndex(of: newEntity)!
            let oldTable = oldLayout.table(ofEntity: oldEntity)
            let offset = keyOffsets[oldEntity] ?? 0
            let values = ["Z_PK" + (offset == 0 ? "" : " + \(offset)"), String(newEntity), "Z_OPT"]
                + contents[t][position].map(expression)
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
                progress.copied(db.changesCount, table: table.name)
                if high == Int64.max { break }
                low = high
            }
        }
    }

    /// Rows copied per statement: the grain of progress reports.
    static let copyChunk = 50_000

    /// The SQLite expression producing `content` from an old row.
    func expression(_ content: ColumnContent) -> String {
        expression(content, convert: { $0.sql($1) }, literal: \.sqlLiteral)
    }

    // MARK: - In place

    private func alterInPlace(_ t: Int, oldTable o: Int, db: Database) throws {
        let table = newLayout.tables[t]
        let old = oldLayout.tables[o]
        var name = old.name
        if old.name != table.name {
            try db.execute(sql: "ALTER TABLE \(sqlIdentifier(old.name)) RENAME TO \(sqlIdentifier(scratchName(t)))")
            name = scratchName(t)
        }
        let target = sqlIdentifier(name)
        let members = table.entityIndices
        let perEntity = contents[t]
        // Rows of old entities that leave the table (removed, or moved to another table by a copy).
        let staying = Set(members.compactMap { mapping.entitySource[$0] })
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
            try dropIndexes(on: column.name, table: name, db: db)
            try db.execute(sql: "ALTER TABLE \(target) DROP COLUMN \(sqlIdentifier(column.name))")
        }
        // Renames in two phases, so columns may swap names.
        let renamed = feeds.filter { table.columns[$0.key].name != $0.value }
        for (c, source) in renamed {
            try db.execute(sql: "ALTER TABLE \(target) RENAME COLUMN \(sqlIdentifier(source)) TO \(sqlIdentifier("\(Self.scratchPrefix)\(c)"))")
        }
        for (c, _) in renamed {
            try db.execute(sql: "ALTER TABLE \(target) RENAME COLUMN \(sqlIdentifier("\(Self.scratchPrefix)\(c)")) TO \(sqlIdentifier(table.columns[c].name))")
        }
        // The old entities whose rows may hold a value in each old column (the others' are NULL).
        var oldUsers: [String: Set<Int>] = [:]
        for (key, position) in old.positions {
            oldUsers[old.columns[position].name, default: []].formUnion(source.entities[key.entity].selfAndDescendantIndices)
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
                guard let oldCode = mapping.entitySource[e] else { continue }
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
                case .entityCodes where renumbersEntities:
                    try db.execute(sql: "UPDATE \(target) SET \(quoted) = \(entityCodeCase(quoted)) WHERE \(quoted) IS NOT NULL\(rows)")
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
        if renumbersEntities {
            try db.execute(sql: "UPDATE \(target) SET Z_ENT = \(entityCodeCase("Z_ENT"))")
        }
    }

    /// The key column of the to-one whose `_ENT` column is `c`, for entity `e`.
    private func keyColumn(ofEntityColumn c: Int, entity e: Int) -> String? {
        guard let columns = newLayout.entities[e].toOne.first(where: { $0?.entity == c }) ?? nil else { return nil }
        return newLayout.table(ofEntity: e).columns[columns.key].name
    }

    private func dropIndexes(on column: String, table: String, db: Database) throws {
        let indexes = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?)", arguments: [table])
        for index in indexes {
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index])
            if columns.contains(where: { $0.caseInsensitiveCompare(column) == .orderedSame }) && !index.hasPrefix("sqlite_") {
                try db.execute(sql: "DROP INDEX \(sqlIdentifier(index))")
            }
        }
    }

    // MARK: - Join tables and relationship contents

    private func joinTables(_ db: Database) throws {
        let keptOld = Set(keptJoinTables.compactMap { $0 })
        for (j, old) in oldLayout.joinTables.enumerated() where !keptOld.contains(j) {
            try db.execute(sql: "DROP TABLE IF EXISTS \(sqlIdentifier(old.name))")
        }
        // Kept ones move to scratch names first, so two may swap names.
        for (j, kept) in keptJoinTables.enumerated() {
            guard let kept else { continue }
            try db.execute(sql: "ALTER TABLE \(sqlIdentifier(oldLayout.joinTables[kept].name)) RENAME TO \(sqlIdentifier("\(Self.scratchPrefix)J\(j)"))")
        }
        let statements = newLayout.schemaStatements(model: destination)
        for (j, join) in newLayout.joinTables.enumerated() {
            if keptJoinTables[j] != nil {
                try db.execute(sql: "ALTER TABLE \(sqlIdentifier("\(Self.scratchPrefix)J\(j)")) RENAME TO \(sqlIdentifier(join.name))")
                if renumbersEntities {
                    try db.execute(sql: "UPDATE \(sqlIdentifier(join.name)) SET Z_DST_ENT = \(entityCodeCase("Z_DST_ENT"))")
                    try db.execute(sql: "DELETE FROM \(sqlIdentifier(join.name)) WHERE Z_DST_ENT IS NULL")
                }
            } else if let create = statements.first(where: { $0.hasPrefix("CREATE TABLE \(sqlIdentifier(join.name)) ") }) {
                try db.execute(sql: create)
            }
        }
    }

    private func apply(_ transfer: RelationshipTransfer, from pairs: String, db: Database, path: String) throws {
        let entity = destination.entities[transfer.entity]
        let relationship = entity.relationships[transfer.relationship]
        let layout = newLayout.entities[transfer.entity]
        if let columns = layout.toOne[transfer.relationship] {
            let crowded = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT s FROM \(pairs) GROUP BY s HAVING COUNT(*) > 1)") ?? 0
            if crowded > 0 {
                throw MigrationError.tooManyDestinations(path: path, entity: entity.name, relationship: relationship.name, objects: crowded)
            }
            let table = newLayout.tables[layout.tableIndex]
            var sets = ["\(sqlIdentifier(table.columns[columns.key].name)) = p.d"]
            if let e = columns.entity { sets.append("\(sqlIdentifier(table.columns[e].name)) = p.de") }
            // The order column of an ordered to-many inverse stored through this key.
            if let inverseName = relationship.inverse, let destination = destination.entity(named: relationship.destination),
               let inverse = destination.relationshipIndex(inverseName),
               case .foreignKey(_, _, let orderColumn?, _, _)? = newLayout.entities[destination.index].toMany[inverse] {
                sets.append("\(sqlIdentifier(orderColumn)) = p.o")
            }
            try db.execute(sql: """
                UPDATE \(sqlIdentifier(table.name)) SET \(sets.joined(separator: ", ")) FROM \(pairs) AS p \
                WHERE \(sqlIdentifier(table.name)).Z_PK = p.s AND \(sqlIdentifier(table.name)).Z_ENT = p.se
                """)
        } else if case .joinTable(let index, _, _)? = layout.toMany[transfer.relationship] {
            try db.execute(sql: """
                INSERT OR IGNORE INTO \(sqlIdentifier(newLayout.joinTables[index].name)) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) \
                SELECT s, d, de, COALESCE(o, 0) FROM \(pairs)
                """)
        }
    }

    /// `Z_PRIMARYKEY`: a row per new table; a copied table continues after the largest key any
    /// of its sources handed out, so keys are never reused.
    private func primaryKeys(_ db: Database) throws {
        var previous: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ROOT, Z_MAX FROM Z_PRIMARYKEY") {
            previous[row[0]] = row[1]
        }
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for (t, table) in newLayout.tables.enumerated() {
            var max = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(sqlIdentifier(table.name))") ?? 0
            switch tables[t] {
            case .create: break
            case .inPlace(let o): max = Swift.max(max, previous[oldLayout.tables[o].name] ?? 0)
            case .copy(let sources):
                for (_, oldEntity) in sources {
                    let old = oldLayout.table(ofEntity: oldEntity).name
                    max = Swift.max(max, (previous[old] ?? 0) + (keyOffsets[oldEntity] ?? 0))
                }
            }
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ROOT, Z_MAX) VALUES (?, ?)", arguments: [table.name, max])
        }
    }
}
