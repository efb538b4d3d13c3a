#if PostgreSQL
import Foundation
import NIOCore
import PostgresNIO

/// One planned migration step (``MigrationStep``: the same plan as an SQLite store's)
/// run on a PostgreSQL store, inside the caller's transaction: PostgreSQL's DDL is
/// transactional, so a failure anywhere rolls every table, column, index and sequence back.
///
/// Every table that keeps rows is rebuilt: a new table of the new layout is filled by one
/// `INSERT … SELECT` per old entity (values converted, entity codes renumbered, keys offset
/// where tables merge), the old tables are dropped and the new ones take their names. Shadow
/// columns of text values that stay as they were are copied; those of new, converted or
/// defaulted text values are computed in Swift exactly as a save computes them. Indexes and
/// unique indexes are made per the new model, key sequences continue past every key handed
/// out, and relationship contents whose storage changed are moved through their pairs.
struct PostgreSQLMigrationExecutor {
    let step: MigrationStep
    let oldLayout: PostgreSQLLayout
    let newLayout: PostgreSQLLayout

    init(step: MigrationStep) {
        self.step = step
        oldLayout = PostgreSQLLayout(model: step.source)
        newLayout = PostgreSQLLayout(model: step.destination)
    }

    private static let scratchPrefix = MigrationStep.scratchPrefix
    private static func q(_ name: String) -> String { PostgreSQLLayout.q(name) }
    private func pairTable(_ i: Int) -> String { Self.q("\(Self.scratchPrefix)PAIRS_\(i)") }
    private func scratchName(_ t: Int) -> String { "\(Self.scratchPrefix)\(t)" }

    /// Rows written per statement when shadow columns are computed.
    static let shadowBatch = 500

    /// Runs the step on `connection` (in the caller's transaction); copies report their rows to
    /// `progress`.
    /// - Throws: ``MigrationError/tooManyDestinations(path:entity:relationship:objects:)``, or a
    ///   ``StoreError`` from the server: the caller rolls back.
    func execute(_ connection: PostgreSQLConnection, path: String, progress: MigrationProgressReporter) throws {
        let q = Self.q
        // 1. Relationship pairs, read while every old table is still as it was.
        for (i, transfer) in step.transfers.enumerated() {
            try connection.execute("CREATE TEMP TABLE \(pairTable(i)) ON COMMIT DROP AS \(RelationshipPairs(step: step).select(transfer))")
        }
        // 2. The model's indexes go (all are made again at the end); history's stay.
        try dropModelIndexes(connection)
        // 3. The keys each old table's sequence handed out, then the old sequences go.
        var handedOut: [String: Int64] = [:]
        for (o, table) in oldLayout.base.tables.enumerated() {
            let sequence = q(oldLayout.sequence(ofTable: o))
            let row = try connection.query("SELECT last_value, is_called FROM \(sequence)").first?.makeRandomAccess()
            let last = (try? row?[0].decode(Int64.self)) ?? 0
            let called = (try? row?[1].decode(Bool.self)) ?? false
            handedOut[table.name] = called ? last : last - 1
            try connection.execute("DROP SEQUENCE \(sequence)")
        }
        // 4. Every table that keeps rows is filled anew under a scratch name.
        var recompute: [(table: Int, column: Int)] = []
        for t in step.tables.indices {
            guard let sources = sources(ofTable: t) else { continue }
            recompute += try copy(t, sources: sources, connection, progress: progress)
        }
        // 5. Old tables go; kept join tables and the new tables take their names.
        for table in oldLayout.base.tables { try connection.execute("DROP TABLE \(q(table.name))") }
        try joinTables(connection)
        for (t, table) in newLayout.base.tables.enumerated() {
            if case .create = step.tables[t] {
                try connection.execute(newLayout.createTableStatement(t))
            } else {
                try connection.execute("ALTER TABLE \(q(scratchName(t))) RENAME TO \(q(table.name))")
            }
        }
        // 6. Shadows of text values a save never computed for these rows.
        for (t, c) in recompute { try computeShadows(table: t, column: c, connection) }
        // 7. Relationship contents whose storage changed.
        for (i, transfer) in step.transfers.enumerated() {
            try apply(transfer, from: pairTable(i), connection, path: path)
            try connection.execute("DROP TABLE \(pairTable(i))")
        }
        // 8. Indexes per the new model, then key sequences past every key handed out.
        for sql in newLayout.schemaStatements(model: step.destination) where MigrationStep.isIndexStatement(sql) {
            try connection.execute(sql)
        }
        try sequences(connection, handedOut: handedOut)
    }

    /// For new table `t`, the old entities whose rows fill it (each with the new entity it
    /// becomes); `nil` for a table created empty. Tables altered in place on SQLite are
    /// rebuilt here too: one statement per entity, in the same transaction.
    private func sources(ofTable t: Int) -> [(newEntity: Int, oldEntity: Int)]? {
        switch step.tables[t] {
        case .create: return nil
        case .copy(let sources): return sources
        case .inPlace: return newLayout.base.tables[t].entityIndices.compactMap { e in step.mapping.entitySource[e].map { (e, $0) } }
        }
    }

    /// The rows the step moves, for progress.
    func rowsToMove(_ reader: any MigrationDataReader) throws -> Int {
        var total = 0
        for t in step.tables.indices {
            for (_, oldEntity) in sources(ofTable: t) ?? [] { total += try step.ownRows(reader, oldEntity) }
        }
        return total
    }

    private func dropModelIndexes(_ connection: PostgreSQLConnection) throws {
        let rows = try connection.query("""
            SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid \
            JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
            WHERE n.nspname = $1 AND NOT x.indisprimary AND t.relname NOT LIKE 'Z\\_HISTORY%' AND t.relname <> 'Z_METADATA'
            """, PostgreSQLStore.bindings(connection.pool.url.schema))
        for row in rows {
            let name = try row.makeRandomAccess()[0].decode(String.self)
            try connection.execute("DROP INDEX \(Self.q(name))")
        }
    }

    // MARK: - Copies

    /// Fills the scratch table of new table `t` from the old rows of `sources`; returns the
    /// shadowed columns whose shadows must be computed.
    private func copy(_ t: Int, sources: [(newEntity: Int, oldEntity: Int)], _ connection: PostgreSQLConnection,
                      progress: MigrationProgressReporter) throws -> [(table: Int, column: Int)] {
        let q = Self.q
        let table = newLayout.base.tables[t]
        try connection.execute(newLayout.createTableStatement(t, name: scratchName(t)))
        var recompute = Set<Int>()
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
                    recompute.insert(c)
                }
            }
            let copied = try connection.execute("""
                INSERT INTO \(q(scratchName(t))) (\(columns.joined(separator: ", "))) \
                SELECT \(values.joined(separator: ", ")) FROM \(q(oldTable.name)) WHERE "Z_ENT" = \(oldEntity)
                """)
            progress.copied(copied, table: table.name)
        }
        return recompute.sorted().map { (t, $0) }
    }

    /// Computes the shadow columns of text column `c` of new table `t` for every row with a
    /// value, with the functions a save uses (``PostgreSQLValues/appendShadows(_:to:)``).
    private func computeShadows(table t: Int, column c: Int, _ connection: PostgreSQLConnection) throws {
        let q = Self.q
        let table = newLayout.base.tables[t]
        let name = table.columns[c].name
        var rows: [(key: Int64, text: String)] = []
        for row in try connection.query("SELECT \"Z_PK\", \(q(name)) FROM \(q(table.name)) WHERE \(q(name)) IS NOT NULL") {
            let cells = row.makeRandomAccess()
            rows.append((try cells[0].decode(Int64.self), try cells[1].decode(String.self)))
        }
        let targets = PostgreSQLLayout.shadowSuffixes.map { q(name + $0) }
        for start in stride(from: 0, to: rows.count, by: Self.shadowBatch) {
            let batch = rows[start..<min(start + Self.shadowBatch, rows.count)]
            var b = PostgresBindings()
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

    // MARK: - Join tables and relationship contents

    private func joinTables(_ connection: PostgreSQLConnection) throws {
        let q = Self.q
        let keptOld = Set(step.keptJoinTables.compactMap { $0 })
        for (j, old) in oldLayout.base.joinTables.enumerated() where !keptOld.contains(j) {
            try connection.execute("DROP TABLE \(q(old.name))")
        }
        // Kept ones move to scratch names first, so two may swap names.
        for (j, kept) in step.keptJoinTables.enumerated() {
            guard let kept else { continue }
            try connection.execute("ALTER TABLE \(q(oldLayout.base.joinTables[kept].name)) RENAME TO \(q("\(Self.scratchPrefix)J\(j)"))")
        }
        for (j, join) in newLayout.base.joinTables.enumerated() {
            guard step.keptJoinTables[j] != nil else {
                try connection.execute(newLayout.createJoinTableStatement(join))
                continue
            }
            try connection.execute("ALTER TABLE \(q("\(Self.scratchPrefix)J\(j)")) RENAME TO \(q(join.name))")
            if step.renumbersEntities {
                // A destination whose entity was removed takes its pair with it.
                try connection.execute("DELETE FROM \(q(join.name)) WHERE (\(step.entityCodeCase(#""Z_DST_ENT""#))) IS NULL")
                try connection.execute("UPDATE \(q(join.name)) SET \"Z_DST_ENT\" = \(step.entityCodeCase(#""Z_DST_ENT""#))")
            }
        }
    }

    private func apply(_ transfer: RelationshipTransfer, from pairs: String, _ connection: PostgreSQLConnection, path: String) throws {
        let q = Self.q
        let destination = step.destination
        let entity = destination.entities[transfer.entity]
        let relationship = entity.relationships[transfer.relationship]
        let layout = newLayout.base.entities[transfer.entity]
        if let columns = layout.toOne[transfer.relationship] {
            let crowded = try connection.query("SELECT COUNT(*) FROM (SELECT s FROM \(pairs) GROUP BY s HAVING COUNT(*) > 1) AS crowded")
                .first.map { try $0.makeRandomAccess()[0].decode(Int.self) } ?? 0
            if crowded > 0 {
                throw MigrationError.tooManyDestinations(path: path, entity: entity.name, relationship: relationship.name, objects: crowded)
            }
            let table = newLayout.base.tables[layout.tableIndex]
            var sets = ["\(q(table.columns[columns.key].name)) = p.d"]
            if let e = columns.entity { sets.append("\(q(table.columns[e].name)) = p.de") }
            // The order column of an ordered to-many inverse stored through this key.
            if let inverseName = relationship.inverse, let target = destination.entity(named: relationship.destination),
               let inverse = target.relationshipIndex(inverseName),
               case .foreignKey(_, _, let orderColumn?, _, _)? = newLayout.base.entities[target.index].toMany[inverse] {
                sets.append("\(q(orderColumn)) = p.o")
            }
            try connection.execute("""
                UPDATE \(q(table.name)) SET \(sets.joined(separator: ", ")) FROM \(pairs) AS p \
                WHERE \(q(table.name))."Z_PK" = p.s AND \(q(table.name))."Z_ENT" = p.se
                """)
        } else if case .joinTable(let index, _, _)? = layout.toMany[transfer.relationship] {
            try connection.execute("""
                INSERT INTO \(q(newLayout.base.joinTables[index].name)) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") \
                SELECT s, d, de, COALESCE(o, 0) FROM \(pairs) ON CONFLICT DO NOTHING
                """)
        }
    }

    /// A key sequence per new table, continuing after the largest key any of its sources
    /// handed out (so keys are never reused) or any row holds.
    private func sequences(_ connection: PostgreSQLConnection, handedOut: [String: Int64]) throws {
        let q = Self.q
        for (t, table) in newLayout.base.tables.enumerated() {
            var max = try connection.query("SELECT COALESCE(MAX(\"Z_PK\"), 0) FROM \(q(table.name))")
                .first.map { try $0.makeRandomAccess()[0].decode(Int64.self) } ?? 0
            switch step.tables[t] {
            case .create: break
            case .inPlace(let o): max = Swift.max(max, handedOut[oldLayout.base.tables[o].name] ?? 0)
            case .copy(let sources):
                for (_, oldEntity) in sources {
                    let old = oldLayout.base.table(ofEntity: oldEntity).name
                    max = Swift.max(max, (handedOut[old] ?? 0) + (step.keyOffsets[oldEntity] ?? 0))
                }
            }
            let sequence = q(newLayout.sequence(ofTable: t))
            try connection.execute("CREATE SEQUENCE \(sequence)")
            if max > 0 { try connection.execute("SELECT setval('\(sequence)', \(max))") }
        }
    }
}
#endif
