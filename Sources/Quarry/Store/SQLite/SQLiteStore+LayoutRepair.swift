import GRDB

extension SQLiteStore {
    /// The columns of `layout` a store made by an older Quarry lacks, by table name.
    ///
    /// Before names that clash were kept apart (issue 16: sibling sub-entities declaring one
    /// name with different types, names differing only in case), such attributes shared one
    /// column; the layout now gives them their own (`<Entity>_<name>`), which an older file does
    /// not have. Every other store lacks nothing.
    static func missingColumns(_ db: Database, layout: StoreLayout) throws -> [String: [StoreLayout.Column]] {
        // Every table's columns in one statement: a store of many tables is read in one pass.
        var present: [String: Set<String>] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'
            """)
        while let row = try rows.next() {
            let table: String = row[0], column: String = row[1]
            present[LayoutNamespace.fold(table), default: []].insert(LayoutNamespace.fold(column))
        }
        var missing: [String: [StoreLayout.Column]] = [:]
        for table in layout.tables {
            guard let columns = present[LayoutNamespace.fold(table.name)] else { continue }
            let lacking = table.columns.filter { !columns.contains(LayoutNamespace.fold($0.name)) }
            if !lacking.isEmpty { missing[table.name] = lacking }
        }
        return missing
    }

    /// Gives an older store the columns its layout now has, in one transaction: each missing
    /// column is added and filled, for the rows of the entities that use it, from the column
    /// of the attribute's own name that they shared before (values as SQLite stored them there);
    /// then the indexes on the new columns are created.
    static func repairLayout(_ db: Database, layout: StoreLayout, model: ManagedObjectModel,
                             missing: [String: [StoreLayout.Column]]) throws {
        for (tableName, columns) in missing.sorted(by: { $0.key < $1.key }) {
            let table = sqlIdentifier(tableName)
            let present = try db.columns(in: tableName).map(\.name)
            for column in columns {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(sqlIdentifier(column.name)) \(column.sqlType)")
                // The entities whose attribute now lives in this column, and the name it had.
                for entity in model.entities where layout.table(ofEntity: entity.index).name == tableName {
                    for (a, attribute) in entity.attributes.enumerated() {
                        guard layout.attributeColumn(a, ofEntity: entity.index) == column.name,
                              let old = present.first(where: { $0.caseInsensitiveCompare(attribute.name) == .orderedSame }) else { continue }
                        try db.execute(sql: "UPDATE \(table) SET \(sqlIdentifier(column.name)) = \(sqlIdentifier(old)) WHERE Z_ENT = \(entity.index)")
                    }
                }
            }
        }
        let existing = Set(try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
        let added = Set(missing.values.flatMap { $0.map { sqlIdentifier($0.name) } })
        for sql in layout.schemaStatements(model: model)
        where MigrationStep.isIndexStatement(sql) && !existing.contains(sql) && added.contains(where: { sql.contains($0) }) {
            try db.execute(sql: sql)
        }
    }
}
