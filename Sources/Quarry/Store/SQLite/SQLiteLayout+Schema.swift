extension SQLiteLayout {
    /// The `CREATE` statements of a new store: root tables, join tables, the bookkeeping tables
    /// and every index (per indexed attribute, per ``IndexDescription``, a `UNIQUE` index per
    /// uniqueness constraint, one per foreign-key and join-table column).
    func schemaStatements(model: ManagedObjectModel) -> [String] {
        var sql: [String] = [
            "CREATE TABLE Z_METADATA (key TEXT PRIMARY KEY, value TEXT)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ROOT TEXT PRIMARY KEY, Z_MAX INTEGER NOT NULL DEFAULT 0)",
        ]
        for table in tables {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER NOT NULL", "Z_OPT INTEGER NOT NULL"]
                + table.columns.map { "\(sqlIdentifier($0.name)) \($0.sqlType)" }
            sql.append("CREATE TABLE \(sqlIdentifier(table.name)) (\(columns.joined(separator: ", ")))")
            sql.append("INSERT INTO Z_PRIMARYKEY (Z_ROOT, Z_MAX) VALUES ('\(table.name)', 0)")
            if table.entityIndices.count > 1 {
                sql.append("CREATE INDEX \(sqlIdentifier("\(table.name)_Z_ENT")) ON \(sqlIdentifier(table.name)) (Z_ENT)")
            }
            for column in table.columns where column.isForeignKey {
                sql.append("CREATE INDEX \(sqlIdentifier("\(table.name)_\(column.name)_fk")) ON \(sqlIdentifier(table.name)) (\(sqlIdentifier(column.name)))")
            }
        }
        for entity in model.entities {
            let table = self.table(ofEntity: entity.index)
            // Constraints of a sub-entity apply to its rows only: the root table is shared.
            let partial = entity.index == entity.rootIndex
                ? "" : " WHERE Z_ENT IN (\(entity.selfAndDescendantIndices.map(String.init).joined(separator: ", ")))"
            for a in entity.definition.attributes where a.isIndexed && !a.isTransient {
                sql.append("CREATE INDEX \(sqlIdentifier("\(entity.name)_\(a.name)_index")) ON \(sqlIdentifier(table.name)) (\(sqlIdentifier(a.name)))\(partial)")
            }
            for i in entity.definition.indexes {
                sql.append("CREATE INDEX \(sqlIdentifier("\(entity.name)_\(i.name)")) ON \(sqlIdentifier(table.name)) (\(i.attributes.map(sqlIdentifier).joined(separator: ", ")))\(partial)")
            }
            for keys in entity.definition.uniquenessConstraints {
                sql.append("CREATE UNIQUE INDEX \(sqlIdentifier("\(entity.name)_unique_\(keys.joined(separator: "_"))")) ON \(sqlIdentifier(table.name)) (\(keys.map(sqlIdentifier).joined(separator: ", ")))\(partial)")
            }
        }
        for join in joinTables {
            sql.append("""
                CREATE TABLE \(sqlIdentifier(join.name)) (Z_SRC INTEGER NOT NULL, Z_DST INTEGER NOT NULL, \
                Z_DST_ENT INTEGER NOT NULL, Z_ORD INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (Z_SRC, Z_DST))
                """)
            sql.append("CREATE INDEX \(sqlIdentifier("\(join.name)_Z_DST")) ON \(sqlIdentifier(join.name)) (Z_DST)")
        }
        return sql
    }
}

/// `name` as a quoted SQL identifier.
func sqlIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
