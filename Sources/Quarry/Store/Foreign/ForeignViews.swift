/// The `TEMP` views that present a foreign database in Quarry's layout: one per layout table
/// and join table, named as the layout names them, built from a ``ForeignSource``.
///
/// They live in the connection's `temp` schema, so the file itself is never written (a
/// read-only connection may create them) and a bare table name in Quarry's queries finds the
/// view before any table of the file with the same name.
enum ForeignViews {
    /// The statements that make the views for `model` over `source` (its auxiliary tables,
    /// when it has some, attached as `aux` first).
    static func statements(model: ManagedObjectModel, layout: StoreLayout, source: ForeignSource) -> [String] {
        var statements: [String] = []
        for (rootIndex, tableIndex) in layout.tableIndexByRoot.sorted(by: { $0.value < $1.value }) {
            statements.append(tableView(layout.tables[tableIndex], root: model.entities[rootIndex], source: source))
        }
        for join in layout.joinTables {
            statements.append(joinView(join, model: model, source: source))
        }
        return statements
    }

    /// `CREATE TEMP VIEW <table> AS SELECT <key> AS Z_PK, <entity> AS Z_ENT, <version> AS
    /// Z_OPT, <expression or NULL> AS <column>, … FROM <source>`.
    static func tableView(_ table: StoreLayout.Table, root: EntityDescription, source: ForeignSource) -> String {
        let columns = table.columns
        var expressions = [String?](repeating: nil, count: columns.count)
        // Shared columns (siblings' same-named properties) take the first key with an expression.
        for (key, position) in table.positions.sorted(by: { $0.value < $1.value }) where expressions[position] == nil {
            expressions[position] = source.columns[key]
        }
        let name = sqlIdentifier(table.name)
        guard let rows = source.tables[root.index] else {
            let nulls = columns.map { "NULL AS \(sqlIdentifier($0.name))" }
            return "CREATE TEMP VIEW \(name) AS SELECT \((["NULL AS Z_PK", "NULL AS Z_ENT", "NULL AS Z_OPT"] + nulls).joined(separator: ", ")) WHERE 0"
        }
        var select = ["\(rows.primaryKey) AS Z_PK", "\(rows.entity ?? String(root.index)) AS Z_ENT", "\(rows.version ?? "0") AS Z_OPT"]
        for (i, column) in columns.enumerated() {
            select.append("\(expressions[i] ?? "NULL") AS \(sqlIdentifier(column.name))")
        }
        let filter = rows.filter.map { " WHERE \($0)" } ?? ""
        return "CREATE TEMP VIEW \(name) AS SELECT \(select.joined(separator: ", ")) FROM \(rows.from)\(filter)"
    }

    /// `CREATE TEMP VIEW <join> AS SELECT <source> AS Z_SRC, <destination> AS Z_DST,
    /// <destination entity> AS Z_DST_ENT, <order> AS Z_ORD FROM <pairs>`, from the storing
    /// side's pairs, or the other side's turned around.
    static func joinView(_ join: StoreLayout.JoinTable, model: ManagedObjectModel, source: ForeignSource) -> String {
        let name = sqlIdentifier(join.name)
        let storing = model.entities[join.storingEntity]
        let relationship = storing.relationship(join.relationship)
        if let pairs = source.joinTables[.init(entity: join.storingEntity, relationship: join.relationship)] {
            return "CREATE TEMP VIEW \(name) AS SELECT \(pairs.source) AS Z_SRC, \(pairs.destination) AS Z_DST, " +
                "\(pairs.destinationEntity) AS Z_DST_ENT, \(pairs.order ?? "0") AS Z_ORD FROM \(pairs.from)"
        }
        if let relationship, let inverse = relationship.inverse, let destination = model.entity(named: relationship.destination) {
            let owner = StoreLayout.declaringEntity(of: inverse, in: destination, model: model)
            if let pairs = source.joinTables[.init(entity: owner.index, relationship: inverse)] {
                // Seen from the other side: its destinations are the storing side's sources;
                // the storing side's destinations are its sources, whose entity its view knows.
                let entity = "(SELECT e.Z_ENT FROM temp.\(sqlIdentifier(join.destinationTable)) AS e WHERE e.Z_PK = \(pairs.source))"
                return "CREATE TEMP VIEW \(name) AS SELECT \(pairs.destination) AS Z_SRC, \(pairs.source) AS Z_DST, " +
                    "\(entity) AS Z_DST_ENT, 0 AS Z_ORD FROM \(pairs.from)"
            }
        }
        return "CREATE TEMP VIEW \(name) AS SELECT NULL AS Z_SRC, NULL AS Z_DST, NULL AS Z_DST_ENT, NULL AS Z_ORD WHERE 0"
    }
}
