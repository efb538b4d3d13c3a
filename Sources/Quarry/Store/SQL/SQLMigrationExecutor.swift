/// Runs one planned migration step (``MigrationStep``) on a SQL store, inside the caller's
/// transaction: on any error the caller rolls back and the store is as it was.
///
/// The order of the work is the same for every SQL back end and lives here
/// (``run(path:progress:)``): relationship pairs are read while the old tables are intact,
/// indexes go, tables are copied (or, where the back end can, altered in place), old tables
/// are dropped, join tables are kept or made, new tables take their names, relationship
/// contents move through their pairs, indexes are made, and key allocation continues past
/// every key handed out. A back end supplies its SQL text and its connection access; names are
/// quoted alike (``sqlIdentifier(_:)``) in both dialects.
protocol SQLMigrationExecutor: AnyObject {
    /// The step this executor runs.
    var step: MigrationStep { get }
    /// Whether a table whose rows stay in one old table keeps that table, altered where it is
    /// (``TableMigration/inPlace(_:)``); otherwise every table keeping rows is rebuilt by a copy.
    var altersInPlace: Bool { get }

    /// Runs `sql`.
    func execute(_ sql: String) throws
    /// The integer `sql` returns in its first row and column; 0 for no row or `NULL`.
    func integer(_ sql: String) throws -> Int64

    /// The name of the temporary table holding transfer `i`'s pairs, quoted.
    func pairTable(_ i: Int) -> String
    /// Makes pair table `i` from `select`, which reads the old tables.
    func createPairTable(_ i: Int, as select: String) throws
    /// Drops the indexes the rebuilt schema makes again (``createIndexes()``).
    func dropIndexes() throws
    /// The largest key each old root table handed out, by name (read before anything moves).
    func keysHandedOut() throws -> [String: Int64]
    /// Fills the scratch table of new table `t` (``scratchName(_:)``) from the old rows of
    /// `sources`, reporting rows to `progress`.
    func copy(_ t: Int, sources: [(newEntity: Int, oldEntity: Int)], progress: MigrationProgressReporter) throws
    /// Alters old table `o` in place into new table `t` (renamed to its scratch name when its
    /// name changes). Called only when ``altersInPlace``.
    func alterInPlace(_ t: Int, oldTable o: Int) throws
    /// Makes new table `t`, empty.
    func createTable(_ t: Int) throws
    /// Makes new join table `j`, empty.
    func createJoinTable(_ j: Int) throws
    /// What the back end does once every new table has its name, before relationships move.
    func finishTables() throws
    /// Copies the pairs of `pairs` into join table `join`, a pair already there staying.
    func insertPairs(into join: String, from pairs: String) throws
    /// Makes the new model's indexes that are missing.
    func createIndexes() throws
    /// Key allocation continues after `floor[t]` in each new table `t`.
    func setKeyFloors(_ floor: [Int64]) throws
}

extension MigrationStep {
    /// Prefix of the tables a migration builds before swapping them in. A store never has
    /// tables of that name outside a migration's transaction.
    static let scratchPrefix = "Z_MIGRATION_"

    /// Whether `sql` makes an index.
    static func isIndexStatement(_ sql: String) -> Bool {
        sql.hasPrefix("CREATE INDEX") || sql.hasPrefix("CREATE UNIQUE INDEX")
    }
}

extension SQLMigrationExecutor {
    /// The name new table `t` is built under before it takes its own.
    func scratchName(_ t: Int) -> String { "\(MigrationStep.scratchPrefix)\(t)" }

    /// For new table `t`, the old entities whose rows a copy moves into it (each with the new
    /// entity it becomes); `nil` for a table created empty or altered in place.
    func copySources(ofTable t: Int) -> [(newEntity: Int, oldEntity: Int)]? {
        switch step.tables[t] {
        case .create: return nil
        case .copy(let sources): return sources
        case .inPlace:
            guard !altersInPlace else { return nil }
            return step.newLayout.tables[t].entityIndices.compactMap { e in step.mapping.entitySource[e].map { (e, $0) } }
        }
    }

    /// The rows the step's copies move, for progress.
    func rowsToMove(_ reader: any MigrationDataReader) throws -> Int {
        var total = 0
        for t in step.tables.indices {
            for (_, oldEntity) in copySources(ofTable: t) ?? [] { total += try step.ownRows(reader, oldEntity) }
        }
        return total
    }

    /// Runs the step, in the caller's transaction. Copies report their rows to `progress`.
    /// - Throws: ``MigrationError/tooManyDestinations(path:entity:relationship:objects:)``, or
    ///   the back end's error: the caller rolls back.
    func run(path: String, progress: MigrationProgressReporter) throws {
        let pairs = RelationshipPairs(step: step)
        // 1. Relationship pairs, read while every old table is still as it was.
        for (i, transfer) in step.transfers.enumerated() { try createPairTable(i, as: pairs.select(transfer)) }
        // 2. Indexes made again at the end; persistent history's tables keep theirs.
        try dropIndexes()
        let handedOut = try keysHandedOut()
        // 3. Copies, into scratch tables.
        for t in step.tables.indices {
            if let sources = copySources(ofTable: t) { try copy(t, sources: sources, progress: progress) }
        }
        // 4. Tables altered in place (renamed to scratch names when their name changes, so two
        //    tables may swap names).
        let kept = altersInPlace ? Set(step.tables.compactMap(\.inPlaceTable)) : []
        for (t, migration) in step.tables.enumerated() {
            guard altersInPlace, let o = migration.inPlaceTable else { continue }
            try alterInPlace(t, oldTable: o)
        }
        // 5. Old tables nothing keeps are dropped; scratch tables take their final names.
        for (o, old) in step.oldLayout.tables.enumerated() where !kept.contains(o) {
            try execute("DROP TABLE \(sqlIdentifier(old.name))")
        }
        try joinTables()
        for (t, table) in step.newLayout.tables.enumerated() {
            switch step.tables[t] {
            case .create:
                try createTable(t)
            case .inPlace(let o) where altersInPlace && step.oldLayout.tables[o].name == table.name:
                break
            default:
                try execute("ALTER TABLE \(sqlIdentifier(scratchName(t))) RENAME TO \(sqlIdentifier(table.name))")
            }
        }
        try finishTables()
        // 6. Relationship contents whose storage changed.
        for (i, transfer) in step.transfers.enumerated() {
            try apply(transfer, from: pairTable(i), path: path)
            try execute("DROP TABLE \(pairTable(i))")
        }
        // 7. Indexes, then key allocation.
        try createIndexes()
        try setKeyFloors(keyFloors(handedOut: handedOut))
    }

    // MARK: - Join tables and relationship contents

    private func joinTables() throws {
        let keptOld = Set(step.keptJoinTables.compactMap { $0 })
        for (j, old) in step.oldLayout.joinTables.enumerated() where !keptOld.contains(j) {
            try execute("DROP TABLE IF EXISTS \(sqlIdentifier(old.name))")
        }
        // Kept ones move to scratch names first, so two may swap names.
        for (j, kept) in step.keptJoinTables.enumerated() {
            guard let kept else { continue }
            try execute("ALTER TABLE \(sqlIdentifier(step.oldLayout.joinTables[kept].name)) RENAME TO \(sqlIdentifier("\(MigrationStep.scratchPrefix)J\(j)"))")
        }
        for (j, join) in step.newLayout.joinTables.enumerated() {
            guard step.keptJoinTables[j] != nil else {
                try createJoinTable(j)
                continue
            }
            let name = sqlIdentifier(join.name)
            try execute("ALTER TABLE \(sqlIdentifier("\(MigrationStep.scratchPrefix)J\(j)")) RENAME TO \(name)")
            if step.renumbersEntities {
                // A destination whose entity was removed takes its pair with it.
                try execute("DELETE FROM \(name) WHERE (\(step.entityCodeCase(#""Z_DST_ENT""#))) IS NULL")
                try execute("UPDATE \(name) SET \"Z_DST_ENT\" = \(step.entityCodeCase(#""Z_DST_ENT""#))")
            }
        }
    }

    private func apply(_ transfer: RelationshipTransfer, from pairs: String, path: String) throws {
        let destination = step.destination
        let entity = destination.entities[transfer.entity]
        let relationship = entity.relationships[transfer.relationship]
        let layout = step.newLayout.entities[transfer.entity]
        if let columns = layout.toOne[transfer.relationship] {
            let crowded = try integer("SELECT COUNT(*) FROM (SELECT s FROM \(pairs) GROUP BY s HAVING COUNT(*) > 1) AS crowded")
            if crowded > 0 {
                throw MigrationError.tooManyDestinations(path: path, entity: entity.name, relationship: relationship.name, objects: Int(crowded))
            }
            let table = step.newLayout.tables[layout.tableIndex]
            var sets = ["\(sqlIdentifier(table.columns[columns.key].name)) = p.d"]
            if let e = columns.entity { sets.append("\(sqlIdentifier(table.columns[e].name)) = p.de") }
            // The order column of an ordered to-many inverse stored through this key.
            if let inverseName = relationship.inverse, let target = destination.entity(named: relationship.destination),
               let inverse = target.relationshipIndex(inverseName),
               case .foreignKey(_, _, let orderColumn?, _, _)? = step.newLayout.entities[target.index].toMany[inverse] {
                sets.append("\(sqlIdentifier(orderColumn)) = p.o")
            }
            let name = sqlIdentifier(table.name)
            try execute("""
                UPDATE \(name) SET \(sets.joined(separator: ", ")) FROM \(pairs) AS p \
                WHERE \(name)."Z_PK" = p.s AND \(name)."Z_ENT" = p.se
                """)
        } else if case .joinTable(let index, _, _)? = layout.toMany[transfer.relationship] {
            try insertPairs(into: sqlIdentifier(step.newLayout.joinTables[index].name), from: pairs)
        }
    }

    // MARK: - Keys

    /// Per new table, the key allocation continues after: the largest key any of its sources
    /// handed out (offset where tables merge), so keys are never reused, or any row holds.
    private func keyFloors(handedOut: [String: Int64]) throws -> [Int64] {
        try step.newLayout.tables.enumerated().map { t, table in
            var max = try integer("SELECT MAX(\"Z_PK\") FROM \(sqlIdentifier(table.name))")
            switch step.tables[t] {
            case .create: break
            case .inPlace(let o): max = Swift.max(max, handedOut[step.oldLayout.tables[o].name] ?? 0)
            case .copy(let sources):
                for (_, oldEntity) in sources {
                    let old = step.oldLayout.table(ofEntity: oldEntity).name
                    max = Swift.max(max, (handedOut[old] ?? 0) + (step.keyOffsets[oldEntity] ?? 0))
                }
            }
            return max
        }
    }
}
