import GRDB

extension SQLiteSaveOperation {
    /// Stores the new contents of each changed to-many relationship of `change`.
    ///
    /// Relationships backed by an inverse foreign key only need their order column (the
    /// membership is the destinations' foreign keys, written with those objects); join tables
    /// are brought in line with the list, touching only the rows that differ.
    func writeToMany(_ change: ObjectChange, db: Database) throws {
        let entityLayout = layout.entities[Int(change.id.entityIndex)]
        for (relationship, ids) in change.toMany.sorted(by: { $0.key < $1.key }) {
            guard relationship < entityLayout.toMany.count, let storage = entityLayout.toMany[relationship] else { continue }
            switch storage {
            case .foreignKey(let table, _, let orderColumn, _, _):
                guard let orderColumn else { continue }
                let statement = SQLiteRawStatement(try db.cachedStatement(
                    sql: "UPDATE \(sqlIdentifier(table)) SET \(sqlIdentifier(orderColumn)) = ? WHERE Z_PK = ?"))
                for (position, id) in ids.enumerated() {
                    statement.bind(Int64(position), at: 1)
                    statement.bind(id.primaryKey, at: 2)
                    try statement.execute()
                }
            case .joinTable(let index, let reversed, let ordered):
                let join = layout.joinTables[index]
                if reversed {
                    try writeReversed(join, owner: change.id, members: ids, db: db)
                } else {
                    try writeStored(join, source: change.id, destinations: ids, ordered: ordered, db: db)
                }
            }
        }
    }

    /// The storing side: `Z_SRC = source`, `Z_ORD` = position.
    private func writeStored(_ join: StoreLayout.JoinTable, source: ObjectID, destinations: [ObjectID], ordered: Bool,
                             db: Database) throws {
        let t = sqlIdentifier(join.name)
        let existing = try Int64.fetchAll(db, sql: "SELECT Z_DST FROM \(t) WHERE Z_SRC = ? ORDER BY Z_ORD, Z_DST",
                                          arguments: [source.primaryKey])
        let wanted = destinations.map(\.primaryKey)
        if existing == wanted { return }
        let insert = SQLiteRawStatement(try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(t) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) VALUES (?, ?, ?, ?)"))
        if ordered {
            try db.execute(sql: "DELETE FROM \(t) WHERE Z_SRC = ?", arguments: [source.primaryKey])
            for (position, id) in destinations.enumerated() {
                try insertPair(insert, source.primaryKey, id, order: Int64(position))
            }
            return
        }
        let wantedSet = Set(wanted)
        let existingSet = Set(existing)
        for key in existing where !wantedSet.contains(key) {
            try db.execute(sql: "DELETE FROM \(t) WHERE Z_SRC = ? AND Z_DST = ?", arguments: [source.primaryKey, key])
        }
        var order = Int64(existing.count)
        for id in destinations where !existingSet.contains(id.primaryKey) {
            try insertPair(insert, source.primaryKey, id, order: order)
            order += 1
        }
    }

    /// The other side of a many-to-many pair: rows with `Z_DST = owner`.
    private func writeReversed(_ join: StoreLayout.JoinTable, owner: ObjectID, members: [ObjectID], db: Database) throws {
        let t = sqlIdentifier(join.name)
        let existing = Set(try Int64.fetchAll(db, sql: "SELECT Z_SRC FROM \(t) WHERE Z_DST = ?", arguments: [owner.primaryKey]))
        let wanted = Set(members.map(\.primaryKey))
        for key in existing.subtracting(wanted) {
            try db.execute(sql: "DELETE FROM \(t) WHERE Z_SRC = ? AND Z_DST = ?", arguments: [key, owner.primaryKey])
        }
        let insert = SQLiteRawStatement(try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO \(t) (Z_SRC, Z_DST, Z_DST_ENT, Z_ORD) \
            VALUES (?, ?, ?, (SELECT COALESCE(MAX(Z_ORD) + 1, 0) FROM \(t) WHERE Z_SRC = ?1))
            """))
        for member in members where !existing.contains(member.primaryKey) {
            insert.bind(member.primaryKey, at: 1)
            insert.bind(owner.primaryKey, at: 2)
            insert.bind(Int64(owner.entityIndex), at: 3)
            try insert.execute()
        }
    }

    private func insertPair(_ statement: SQLiteRawStatement, _ source: Int64, _ destination: ObjectID, order: Int64) throws {
        statement.bind(source, at: 1)
        statement.bind(destination.primaryKey, at: 2)
        statement.bind(Int64(destination.entityIndex), at: 3)
        statement.bind(order, at: 4)
        try statement.execute()
    }

    /// Removes `id` from every join table it can appear in (as source or destination).
    func deleteJoinRows(of id: ObjectID, db: Database) throws {
        let table = layout.table(ofEntity: Int(id.entityIndex)).name
        for join in layout.joinTables {
            if join.sourceTable == table {
                try db.execute(sql: "DELETE FROM \(sqlIdentifier(join.name)) WHERE Z_SRC = ?", arguments: [id.primaryKey])
            }
            if join.destinationTable == table {
                try db.execute(sql: "DELETE FROM \(sqlIdentifier(join.name)) WHERE Z_DST = ?", arguments: [id.primaryKey])
            }
        }
    }
}
