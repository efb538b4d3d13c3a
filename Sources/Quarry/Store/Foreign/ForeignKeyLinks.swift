import GRDB

/// The single-column foreign keys of a database's tables, as to-one relationships with an
/// inverse to-many (see ``SQLiteIntrospection``).
struct ForeignKeyLinks {
    /// One foreign key.
    struct Link {
        /// The referencing object's index and its to-one's name there.
        var source: Int
        var relationship: String
        /// The referenced object's index and the inverse to-many's name there.
        var destination: Int
        var inverse: String
        /// The destination's primary key, read from the source row `s`.
        var keyExpression: String
    }

    /// Reads `PRAGMA foreign_key_list` of every table; composite keys and keys naming a
    /// missing table or column are skipped with a warning (their columns stay attributes).
    static func read(_ db: Database, objects: [SQLiteIntrospection.Object], path: String,
                     warnings: inout [String]) throws -> [Link] {
        var links: [Link] = []
        var propertyNames = objects.map { Set($0.columns.map { $0.attributeName.lowercased() }) }
        for (sourceIndex, object) in objects.enumerated() where !object.isView {
            let rows = try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(sqlIdentifier(object.sqlName)))")
            let byKey = Dictionary(grouping: rows, by: { (row: Row) -> Int in row["id"] ?? 0 })
            for id in byKey.keys.sorted() {
                let parts = byKey[id]!
                let table: String = parts[0]["table"] ?? ""
                let from: [String] = parts.map { $0["from"] ?? "" }
                let what = "\(path): foreign key \(object.sqlName)(\(from.joined(separator: ", "))) → \(table)"
                guard parts.count == 1 else {
                    warnings.append("\(what) spans several columns: its columns are shown, not followed")
                    continue
                }
                guard let destinationIndex = objects.firstIndex(where: { $0.sqlName.lowercased() == table.lowercased() }) else {
                    warnings.append("\(what) names a table that is not there: its column is shown, not followed")
                    continue
                }
                guard let column = object.columns.first(where: { $0.sqlName == from[0] }) else { continue }
                let to: String? = parts[0]["to"]
                guard let key = keyExpression(from: column.sqlName, to: to, destination: objects[destinationIndex]) else {
                    warnings.append("\(what) refers to no single key column: its column is shown, not followed")
                    continue
                }
                let name = ForeignNames.relationshipName(column.sqlName, destination: objects[destinationIndex].entityName,
                                            taken: &propertyNames[sourceIndex])
                let inverseName = ForeignNames.inverseName(of: object.entityName, column: column.sqlName, taken: &propertyNames[destinationIndex])
                links.append(Link(source: sourceIndex, relationship: name, destination: destinationIndex, inverse: inverseName,
                                  keyExpression: key))
            }
        }
        return links
    }

    /// The destination's object key for the value of column `from` of the source row `s`: the
    /// value itself when it refers to the destination's rowid, else a lookup.
    static func keyExpression(from: String, to: String?, destination: SQLiteIntrospection.Object) -> String? {
        let value = "s.\(sqlIdentifier(from))"
        let keyColumns = destination.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        let target = to ?? (keyColumns.count == 1 ? keyColumns[0].sqlName : nil)
        switch destination.key {
        case .rowid(let key):
            guard let target else { return value }   // no primary key: the rowid
            if key == sqlIdentifier(target) { return value }
            return "(SELECT d.\(key) FROM \(destination.mainSource) AS d WHERE d.\(sqlIdentifier(target)) = \(value))"
        case .keyTable(let table, let columns):
            guard let target else { return nil }
            if columns.count == 1, columns[0] == target {
                return "(SELECT d.Z_PK FROM aux.\(sqlIdentifier(table)) AS d WHERE d.k0 = \(value))"
            }
            let on = columns.enumerated().map { "d.\(sqlIdentifier($0.element)) = k.k\($0.offset)" }.joined(separator: " AND ")
            return "(SELECT k.Z_PK FROM aux.\(sqlIdentifier(table)) AS k JOIN \(destination.mainSource) AS d ON \(on) WHERE d.\(sqlIdentifier(target)) = \(value))"
        case .copy(let table):
            guard let target else { return nil }
            return "(SELECT d.rowid FROM aux.\(sqlIdentifier(table)) AS d WHERE d.\(sqlIdentifier(target)) = \(value))"
        }
    }


}
