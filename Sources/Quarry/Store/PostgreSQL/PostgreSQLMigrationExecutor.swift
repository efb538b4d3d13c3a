import Foundation

/// Runs one planned migration step (``MigrationStep``: the same plan as an SQLite store's) on
/// a PostgreSQL store, inside the caller's transaction, through the shared order of work
/// (``SQLMigrationExecutor``): PostgreSQL's DDL is transactional, so a failure anywhere rolls
/// every table, column, index and sequence back.
///
/// Every table that keeps rows is rebuilt: a new table of the new layout is filled by one
/// `INSERT … SELECT` per old entity (values converted, entity codes renumbered, keys offset
/// where tables merge), the old tables are dropped and the new ones take their names. Shadow
/// columns of text values that stay as they were are copied; those of new, converted or
/// defaulted text values are computed in Swift exactly as a save computes them. Indexes and
/// unique indexes are made per the new model and key sequences continue past every key
/// handed out.
///
/// Not thread-safe: it lives for one step of one migration, on its connection.
final class PostgreSQLMigrationExecutor: SQLMigrationExecutor {
    let step: MigrationStep
    let connection: PostgreSQLConnection
    let oldLayout: PostgreSQLLayout
    let newLayout: PostgreSQLLayout
    /// The (new table, column) pairs whose shadow columns the copies left to compute.
    private var recompute: [(table: Int, column: Int)] = []

    init(step: MigrationStep, connection: PostgreSQLConnection) {
        self.step = step
        self.connection = connection
        oldLayout = PostgreSQLLayout(model: step.source)
        newLayout = PostgreSQLLayout(model: step.destination)
    }

    /// Rows written per statement when shadow columns are computed.
    static let shadowBatch = 500

    /// Every table keeping rows is rebuilt.
    var altersInPlace: Bool { false }

    func execute(_ sql: String) throws { try connection.execute(sql) }

    func integer(_ sql: String) throws -> Int64 {
        try connection.query(sql).first.flatMap { try $0[0].decode(Int64?.self) } ?? 0
    }

    func pairTable(_ i: Int) -> String { PostgreSQLLayout.q("\(MigrationStep.scratchPrefix)PAIRS_\(i)") }

    func createPairTable(_ i: Int, as select: String) throws {
        try connection.execute("CREATE TEMP TABLE \(pairTable(i)) ON COMMIT DROP AS \(select)")
    }

    /// The model's indexes go (all are made again at the end); history's and the metadata's stay.
    func dropIndexes() throws {
        let rows = try connection.query("""
            SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
            JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
            WHERE n.nspname = $1 AND NOT x.indisprimary AND t.relname NOT LIKE 'Z\\_HISTORY%' AND t.relname <> 'Z_METADATA'
            """, PostgreSQLStore.bindings(connection.pool.url.schema))
        for row in rows {
            let name = try row[0].decode(String.self)
            try connection.execute("DROP INDEX \(PostgreSQLLayout.q(name))")
        }
    }

    /// The keys each old table's sequence handed out; then the old sequences go.
    func keysHandedOut() throws -> [String: Int64] {
        var handedOut: [String: Int64] = [:]
        for (o, table) in oldLayout.base.tables.enumerated() {
            let sequence = PostgreSQLLayout.q(oldLayout.sequence(ofTable: o))
            handedOut[table.name] = try PostgreSQLKeyBlocks.handedOut(sequence: oldLayout.sequence(ofTable: o), on: connection)
            try connection.execute("DROP SEQUENCE \(sequence)")
        }
        return handedOut
    }

    func alterInPlace(_ t: Int, oldTable o: Int) throws {
        preconditionFailure("PostgreSQL rebuilds every table (altersInPlace is false)")
    }

    func createTable(_ t: Int) throws { try connection.execute(newLayout.createTableStatement(t)) }

    func createJoinTable(_ j: Int) throws { try connection.execute(newLayout.createJoinTableStatement(newLayout.base.joinTables[j])) }

    /// Shadows of text values a save never computed for these rows.
    func finishTables() throws {
        for (t, c) in recompute { try computeShadows(table: t, column: c) }
    }

    func insertPairs(into join: String, from pairs: String) throws {
        try connection.execute("""
            INSERT INTO \(join) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") SELECT s, d, de, COALESCE(o, 0) FROM \(pairs) ON CONFLICT DO NOTHING
            """)
    }

    /// Every index of the new model (the old ones were dropped).
    func createIndexes() throws {
        for sql in newLayout.schemaStatements(model: step.destination) where MigrationStep.isIndexStatement(sql) {
            try connection.execute(sql)
        }
    }

    /// A key sequence per new table.
    func setKeyFloors(_ floor: [Int64]) throws {
        for t in newLayout.base.tables.indices {
            let sequence = PostgreSQLLayout.q(newLayout.sequence(ofTable: t))
            try connection.execute(PostgreSQLKeyBlocks.createSequence(sequence))
            if floor[t] > 0 { try connection.execute("SELECT setval('\(sequence)', \(floor[t]))") }
        }
    }

    // MARK: - Copies

    /// One `INSERT … SELECT` per old entity; notes the shadowed columns whose shadows
    /// ``finishTables()`` computes.
    func copy(_ t: Int, sources: [(newEntity: Int, oldEntity: Int)], progress: MigrationProgressReporter) throws {
        let q = PostgreSQLLayout.q
        let table = newLayout.base.tables[t]
        try connection.execute(newLayout.createTableStatement(t, name: scratchName(t)))
        var recomputed = Set<Int>()
        for (newEntity, oldEntity) in sources {
            let position = table.entityIndices.firstIndex(of: newEntity)!
            let oldTableIndex = oldLayout.base.entities[oldEntity].tableIndex
            let oldTable = oldLayout.base.tables[oldTableIndex]
            let offset = step.keyOffsets[oldEntity] ?? 0
            var columns = [#""Z_PK""#, #""Z_ENT""#, #""Z_OPT""#]
            var values = [#""Z_PK""# + (offset == 0 ? "" : " + \(offset)"), String(newEntity), #""Z_OPT""#]
            for (c, column) in table.columns.enumerated() {
                let content = step.contents[t][position][c]
                columns.append(q(column.name))
                values.append(step.expression(content, convert: PostgreSQLMigrationSQL.convert, literal: PostgreSQLMigrationSQL.literal))
                guard newLayout.shadowed[t][c] else { continue }
                // Shadows follow the value when it is stored unchanged in a shadowed column.
                if case .old(let old, .unchanged) = content,
                   let o = oldTable.columns.firstIndex(where: { $0.name == old }), oldLayout.shadowed[oldTableIndex][o] {
                    for suffix in PostgreSQLLayout.shadowSuffixes {
                        columns.append(q(column.name + suffix))
                        values.append(q(old + suffix))
                    }
                } else if content != .null {
                    recomputed.insert(c)
                }
            }
            let copied = try connection.execute("""
                INSERT INTO \(q(scratchName(t))) (\(columns.joined(separator: ", "))) \
                SELECT \(values.joined(separator: ", ")) FROM \(q(oldTable.name)) WHERE "Z_ENT" = \(oldEntity)
                """)
            try progress.copied(copied, table: table.name)
        }
        recompute += recomputed.sorted().map { (t, $0) }
    }

    /// Computes the shadow columns of text column `c` of new table `t` for every row with a
    /// value, with the functions a save uses (``PostgreSQLValues/appendShadows(_:to:)``).
    private func computeShadows(table t: Int, column c: Int) throws {
        let q = PostgreSQLLayout.q
        let table = newLayout.base.tables[t]
        let name = table.columns[c].name
        var rows: [(key: Int64, text: String)] = []
        for row in try connection.query("SELECT \"Z_PK\", \(q(name)) FROM \(q(table.name)) WHERE \(q(name)) IS NOT NULL") {
            rows.append((try row[0].decode(Int64.self), try row[1].decode(String.self)))
        }
        let targets = PostgreSQLLayout.shadowSuffixes.map { q(name + $0) }
        for start in stride(from: 0, to: rows.count, by: Self.shadowBatch) {
            let batch = rows[start..<min(start + Self.shadowBatch, rows.count)]
            var b = PGBindings()
            var tuples: [String] = []
            for (i, row) in batch.enumerated() {
                let n = i * 6
                tuples.append("($\(n + 1)::bigint, $\(n + 2)::text, $\(n + 3)::text, $\(n + 4)::text, $\(n + 5)::text, $\(n + 6)::bytea)")
                b.append(row.key)
                PostgreSQLValues.appendShadows(.string(row.text), to: &b)
            }
            try connection.execute("""
                UPDATE \(q(table.name)) SET \(targets.enumerated().map { "\($0.element) = v.s\($0.offset)" }.joined(separator: ", ")) \
                FROM (VALUES \(tuples.joined(separator: ", "))) AS v(k, s0, s1, s2, s3, s4) WHERE \(q(table.name))."Z_PK" = v.k
                """, b)
        }
    }
}
