extension StoreLayout {
    /// `CREATE TABLE` for root table `table`, under `name` (its own name by default; a migration
    /// builds a copy under a scratch name).
    func createTableStatement(_ table: Table, name: String? = nil) -> String {
        let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER NOT NULL", "Z_OPT INTEGER NOT NULL"]
            + table.columns.map { "\(sqlIdentifier($0.name)) \($0.sqlType)" }
        return "CREATE TABLE \(sqlIdentifier(name ?? table.name)) (\(columns.joined(separator: ", ")))"
    }

    /// The `CREATE` statements of a new store: root tables, join tables, the bookkeeping tables
    /// and every index (per indexed attribute, per ``IndexDescription``, a `UNIQUE` index per
    /// uniqueness constraint, one per foreign-key and join-table column).
    ///
    /// Index names share SQLite's namespace with the tables; they are named by
    /// ``nameIndexes(_:)`` (natural names, a numbered fallback only for a clash).
    func schemaStatements(model: ManagedObjectModel) -> [String] {
        var sql: [String] = [
            "CREATE TABLE Z_METADATA (key TEXT PRIMARY KEY, value TEXT)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ROOT TEXT PRIMARY KEY, Z_MAX INTEGER NOT NULL DEFAULT 0)",
        ]
        // (natural name, the statement after `CREATE [UNIQUE] INDEX <name>`, unique)
        var indexes: [(natural: String, body: String, unique: Bool)] = []
        for table in tables {
            sql.append(createTableStatement(table))
            sql.append("INSERT INTO Z_PRIMARYKEY (Z_ROOT, Z_MAX) VALUES (\(sqlQuoted(table.name, by: "'")), 0)")
            if table.entityIndices.count > 1 {
                indexes.append(("\(table.name)_Z_ENT", "ON \(sqlIdentifier(table.name)) (Z_ENT)", false))
            }
            for column in table.columns where column.isForeignKey {
                indexes.append(("\(table.name)_\(column.name)_fk", "ON \(sqlIdentifier(table.name)) (\(sqlIdentifier(column.name)))", false))
            }
        }
        for entity in model.entities {
            let table = self.table(ofEntity: entity.index)
            // Constraints of a sub-entity apply to its rows only: the root table is shared.
            let partial = entity.index == entity.rootIndex
                ? "" : " WHERE Z_ENT IN (\(entity.selfAndDescendantIndices.map(String.init).joined(separator: ", ")))"
            // The layout's column of an attribute (the name itself for one without a column,
            // which SQLite then refuses by name).
            func column(_ name: String) -> String {
                sqlIdentifier(entity.attributeIndex(name).flatMap { attributeColumn($0, ofEntity: entity.index) } ?? name)
            }
            let on = "ON \(sqlIdentifier(table.name))"
            for a in entity.definition.ownStoredAttributes where a.isIndexed && !a.isTransient {
                indexes.append(("\(entity.name)_\(a.name)_index", "\(on) (\(column(a.name)))\(partial)", false))
            }
            for i in entity.definition.indexes {
                indexes.append(("\(entity.name)_\(i.name)", "\(on) (\(i.attributes.map(column).joined(separator: ", ")))\(partial)", false))
            }
            for keys in entity.definition.uniquenessConstraints {
                indexes.append(("\(entity.name)_unique_\(keys.joined(separator: "_"))", "\(on) (\(keys.map(column).joined(separator: ", ")))\(partial)", true))
            }
        }
        for join in joinTables {
            sql.append("""
                CREATE TABLE \(sqlIdentifier(join.name)) (Z_SRC INTEGER NOT NULL, Z_DST INTEGER NOT NULL, \
                Z_DST_ENT INTEGER NOT NULL, Z_ORD INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (Z_SRC, Z_DST))
                """)
            indexes.append(("\(join.name)_Z_DST", "ON \(sqlIdentifier(join.name)) (Z_DST)", false))
        }
        for (name, index) in zip(nameIndexes(indexes.map(\.natural)), indexes) {
            sql.append("CREATE \(index.unique ? "UNIQUE " : "")INDEX \(sqlIdentifier(name)) \(index.body)")
        }
        return sql
    }
}
