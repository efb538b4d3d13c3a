import GRDB

/// Join tables and order columns, one row a statement.
extension SQLiteSaveRows {
    func writeOrder(_ ids: [ObjectID], table: String, column: String) throws {
        let statement = SQLiteRawStatement(try db.cachedStatement(
            sql: "UPDATE \(sqlIdentifier(table)) SET \(sqlIdentifier(column)) = ? WHERE Z_PK = ?"))
        for (position, id) in ids.enumerated() {
            statement.bind(Int64(position), at: 1)
            statement.bind(id.primaryKey, at: 2)
            try statement.execute()
        }
    }

    func joinKeys(_ join: StoreLayout.JoinTable, side: SQLJoinSide, otherSide key: Int64) throws -> [Int64] {
        let order = side == .destination ? " ORDER BY Z_ORD, Z_DST" : ""
        return try Int64.fetchAll(db, sql: "SELECT \(side.column) FROM \(sqlIdentifier(join.name)) WHERE \(side.other.column) = ?\(order)",
                                  arguments: [key])
    }

    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, key: Int64) throws {
        let statement = SQLiteRawStatement(try db.cachedStatement(sql: "DELETE FROM \(sqlIdentifier(join.name)) WHERE \(side.column) = ?"))
        statement.bind(key, at: 1)
        try statement.execute()
    }

    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, keys: [Int64], otherSide other: Int64) throws {
        let statement = SQLiteRawStatement(try db.cachedStatement(
            sql: "DELETE FROM \(sqlIdentifier(join.name)) WHERE \(side.column) = ? AND \(side.other.column) = ?"))
        for key in keys {
            statement.bind(key, at: 1)
            statement.bind(other, at: 2)
            try statement.execute()
        }
    }

    func insertJoinRows(_ join: StoreLayout.JoinTable, source: Int64, destinations: [(id: ObjectID, order: Int64)]) throws {
        let statement = SQLiteRawStatement(try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(sqlIdentifier(join.name)) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) VALUES (?, ?, ?, ?)"))
        for (id, order) in destinations {
            statement.bind(source, at: 1)
            statement.bind(id.primaryKey, at: 2)
            statement.bind(Int64(id.entityIndex), at: 3)
            statement.bind(order, at: 4)
            try statement.execute()
        }
    }

    func appendJoinRows(_ join: StoreLayout.JoinTable, sources: [Int64], destination: ObjectID) throws {
        let t = sqlIdentifier(join.name)
        let statement = SQLiteRawStatement(try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO \(t) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) \
            VALUES (?, ?, ?, (SELECT COALESCE(MAX(Z_ORD) + 1, 0) FROM \(t) WHERE Z_SRC = ?1))
            """))
        for source in sources {
            statement.bind(source, at: 1)
            statement.bind(destination.primaryKey, at: 2)
            statement.bind(Int64(destination.entityIndex), at: 3)
            try statement.execute()
        }
    }
}
