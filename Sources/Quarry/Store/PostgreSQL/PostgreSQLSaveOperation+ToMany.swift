#if PostgreSQL
import PostgresNIO

extension PostgreSQLSaveOperation {
    /// Stores the new contents of each changed to-many relationship of `change`, as
    /// ``SQLiteSaveOperation/writeToMany(_:db:)`` does: order columns for relationships backed
    /// by an inverse foreign key, join-table rows brought in line with the list otherwise.
    func writeToMany(_ change: ObjectChange, connection: PostgreSQLConnection) throws {
        let entityLayout = layout.base.entities[Int(change.id.entityIndex)]
        for (relationship, ids) in change.toMany.sorted(by: { $0.key < $1.key }) {
            guard relationship < entityLayout.toMany.count, let storage = entityLayout.toMany[relationship] else { continue }
            switch storage {
            case .foreignKey(let table, _, let orderColumn, _, _):
                guard let orderColumn, !ids.isEmpty else { continue }
                // One statement: each key with its position.
                var b = PostgresBindings()
                b.append(ids.map(\.primaryKey))
                try connection.execute("""
                    UPDATE \(PostgreSQLLayout.q(table)) t SET \(PostgreSQLLayout.q(orderColumn)) = o.pos - 1 \
                    FROM unnest($1::bigint[]) WITH ORDINALITY AS o(pk, pos) WHERE t."Z_PK" = o.pk
                    """, b)
            case .joinTable(let index, let reversed, let ordered):
                let join = layout.base.joinTables[index]
                if reversed {
                    try writeReversed(join, owner: change.id, members: ids, connection: connection)
                } else {
                    try writeStored(join, source: change.id, destinations: ids, ordered: ordered, connection: connection)
                }
            }
        }
    }

    private func keys(_ sql: String, _ key: Int64, connection: PostgreSQLConnection) throws -> [Int64] {
        var b = PostgresBindings()
        b.append(key)
        return try connection.query(sql, b).compactMap { PostgreSQLValues.integer($0.makeRandomAccess()[0]) }
    }

    /// Inserts `(source, destination, destination entity, order)` rows in one statement.
    private func insertPairs(_ table: String, _ rows: [(Int64, ObjectID, Int64)], onConflict: String, connection: PostgreSQLConnection) throws {
        guard !rows.isEmpty else { return }
        var b = PostgresBindings()
        b.append(rows.map(\.0))
        b.append(rows.map(\.1.primaryKey))
        b.append(rows.map { Int64($0.1.entityIndex) })
        b.append(rows.map(\.2))
        try connection.execute("""
            INSERT INTO \(table) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") \
            SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) \(onConflict)
            """, b)
    }

    /// The storing side: `Z_SRC = source`, `Z_ORD` = position.
    private func writeStored(_ join: StoreLayout.JoinTable, source: ObjectID, destinations: [ObjectID], ordered: Bool,
                             connection: PostgreSQLConnection) throws {
        let t = PostgreSQLLayout.q(join.name)
        let existing = try keys("SELECT \"Z_DST\" FROM \(t) WHERE \"Z_SRC\" = $1 ORDER BY \"Z_ORD\", \"Z_DST\"", source.primaryKey, connection: connection)
        let wanted = destinations.map(\.primaryKey)
        if existing == wanted { return }
        let upsert = #"ON CONFLICT ("Z_SRC", "Z_DST") DO UPDATE SET "Z_DST_ENT" = excluded."Z_DST_ENT", "Z_ORD" = excluded."Z_ORD""#
        if ordered {
            var b = PostgresBindings()
            b.append(source.primaryKey)
            try connection.execute("DELETE FROM \(t) WHERE \"Z_SRC\" = $1", b)
            try insertPairs(t, destinations.enumerated().map { (source.primaryKey, $0.element, Int64($0.offset)) }, onConflict: upsert, connection: connection)
            return
        }
        let wantedSet = Set(wanted)
        let existingSet = Set(existing)
        let gone = existing.filter { !wantedSet.contains($0) }
        if !gone.isEmpty {
            var b = PostgresBindings()
            b.append(source.primaryKey)
            b.append(gone)
            try connection.execute("DELETE FROM \(t) WHERE \"Z_SRC\" = $1 AND \"Z_DST\" = ANY($2)", b)
        }
        var order = Int64(existing.count)
        var rows: [(Int64, ObjectID, Int64)] = []
        for id in destinations where !existingSet.contains(id.primaryKey) {
            rows.append((source.primaryKey, id, order))
            order += 1
        }
        try insertPairs(t, rows, onConflict: upsert, connection: connection)
    }

    /// The other side of a many-to-many pair: rows with `Z_DST = owner`.
    private func writeReversed(_ join: StoreLayout.JoinTable, owner: ObjectID, members: [ObjectID], connection: PostgreSQLConnection) throws {
        let t = PostgreSQLLayout.q(join.name)
        let existing = Set(try keys("SELECT \"Z_SRC\" FROM \(t) WHERE \"Z_DST\" = $1", owner.primaryKey, connection: connection))
        let wanted = Set(members.map(\.primaryKey))
        let gone = Array(existing.subtracting(wanted))
        if !gone.isEmpty {
            var b = PostgresBindings()
            b.append(gone)
            b.append(owner.primaryKey)
            try connection.execute("DELETE FROM \(t) WHERE \"Z_SRC\" = ANY($1) AND \"Z_DST\" = $2", b)
        }
        for member in members where !existing.contains(member.primaryKey) {
            var b = PostgresBindings()
            b.append(member.primaryKey)
            b.append(owner.primaryKey)
            b.append(Int64(owner.entityIndex))
            try connection.execute("""
                INSERT INTO \(t) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") \
                VALUES ($1, $2, $3, (SELECT COALESCE(MAX("Z_ORD") + 1, 0) FROM \(t) WHERE "Z_SRC" = $1)) ON CONFLICT DO NOTHING
                """, b)
        }
    }

    /// Removes `id` from every join table it can appear in (as source or destination).
    func deleteJoinRows(of id: ObjectID, connection: PostgreSQLConnection) throws {
        let table = layout.base.table(ofEntity: Int(id.entityIndex)).name
        for join in layout.base.joinTables {
            var b = PostgresBindings()
            b.append(id.primaryKey)
            if join.sourceTable == table {
                try connection.execute("DELETE FROM \(PostgreSQLLayout.q(join.name)) WHERE \"Z_SRC\" = $1", b)
            }
            if join.destinationTable == table {
                try connection.execute("DELETE FROM \(PostgreSQLLayout.q(join.name)) WHERE \"Z_DST\" = $1", b)
            }
        }
    }
}
#endif
