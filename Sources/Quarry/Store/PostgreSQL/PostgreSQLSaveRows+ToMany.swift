
/// Join tables and order columns, a list of keys a statement (PostgreSQL arrays).
extension PostgreSQLSaveRows {
    func writeOrder(_ ids: [ObjectID], table: String, column: String) throws {
        // One statement: each key with its position.
        var b = PGBindings()
        b.append(ids.map(\.primaryKey))
        try connection.execute("""
            UPDATE \(PostgreSQLLayout.q(table)) t SET \(PostgreSQLLayout.q(column)) = o.pos - 1 \
            FROM unnest($1::bigint[]) WITH ORDINALITY AS o(pk, pos) WHERE t."Z_PK" = o.pk
            """, b)
    }

    func joinKeys(_ join: StoreLayout.JoinTable, side: SQLJoinSide, otherSide key: Int64) throws -> [Int64] {
        var b = PGBindings()
        b.append(key)
        let order = side == .destination ? #" ORDER BY "Z_ORD", "Z_DST""# : ""
        return try connection.query("SELECT \(PostgreSQLLayout.q(side.column)) FROM \(PostgreSQLLayout.q(join.name)) WHERE \(PostgreSQLLayout.q(side.other.column)) = $1\(order)", b)
            .compactMap { try PostgreSQLValues.integer($0[0]) }
    }

    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, key: Int64) throws {
        var b = PGBindings()
        b.append(key)
        try connection.execute("DELETE FROM \(PostgreSQLLayout.q(join.name)) WHERE \(PostgreSQLLayout.q(side.column)) = $1", b)
    }

    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, keys: [Int64], otherSide other: Int64) throws {
        var b = PGBindings()
        b.append(keys)
        b.append(other)
        try connection.execute(
            "DELETE FROM \(PostgreSQLLayout.q(join.name)) WHERE \(PostgreSQLLayout.q(side.column)) = ANY($1) AND \(PostgreSQLLayout.q(side.other.column)) = $2", b)
    }

    /// One statement for every row: an upsert from four arrays.
    func insertJoinRows(_ join: StoreLayout.JoinTable, source: Int64, destinations: [(id: ObjectID, order: Int64)]) throws {
        var b = PGBindings()
        b.append([Int64](repeating: source, count: destinations.count))
        b.append(destinations.map(\.id.primaryKey))
        b.append(destinations.map { Int64($0.id.entityIndex) })
        b.append(destinations.map(\.order))
        try connection.execute("""
            INSERT INTO \(PostgreSQLLayout.q(join.name)) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") \
            SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) \
            ON CONFLICT ("Z_SRC", "Z_DST") DO UPDATE SET "Z_DST_ENT" = excluded."Z_DST_ENT", "Z_ORD" = excluded."Z_ORD"
            """, b)
    }

    /// One statement a source: each goes to the end of its own order.
    func appendJoinRows(_ join: StoreLayout.JoinTable, sources: [Int64], destination: ObjectID) throws {
        let t = PostgreSQLLayout.q(join.name)
        for source in sources {
            var b = PGBindings()
            b.append(source)
            b.append(destination.primaryKey)
            b.append(Int64(destination.entityIndex))
            try connection.execute("""
                INSERT INTO \(t) ("Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD") \
                VALUES ($1, $2, $3, (SELECT COALESCE(MAX("Z_ORD") + 1, 0) FROM \(t) WHERE "Z_SRC" = $1)) ON CONFLICT DO NOTHING
                """, b)
        }
    }
}
