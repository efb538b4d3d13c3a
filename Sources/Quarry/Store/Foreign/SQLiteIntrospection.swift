import Foundation
import GRDB

/// Reads the schema of an SQLite database Quarry did not make into a model and the
/// ``ForeignSource`` that presents its rows in Quarry's layout.
///
/// - Each table and view becomes an entity named as it is (any characters but `.`, which
///   becomes `_`); each column an attribute (see ``SQLiteColumnKind``).
/// - The object ID is the table's `rowid` (its `INTEGER PRIMARY KEY` when it has one). A
///   `WITHOUT ROWID` table is keyed by its primary key, numbered once in primary-key order in
///   an auxiliary table; a view's rows are copied into one when the database is opened (a view
///   has no key to find a row by). See ``ForeignSource/setup``.
/// - Each single-column foreign key becomes a to-one relationship (named after the column
///   without its `_id`/`Id` suffix) with an inverse to-many on the referenced entity (named
///   after the referencing table), so both directions can be followed.
///
/// Nothing is written to the file: the reads run on the caller's read-only connection.
struct SQLiteIntrospection {
    /// The recovered model, its source and what was skipped.
    struct Result {
        var model: ManagedObjectModel
        var source: ForeignSource
        var warnings: [String]
    }

    /// One table or view being read.
    struct Object {
        var sqlName: String
        var entityName: String
        var isView: Bool
        var columns: [Column]
        /// The `FROM` target that reads it in place (`main."t"`), for sampling.
        var mainSource: String
        /// How its rows are found: the key and the `FROM` body for the views.
        var key: Key
    }

    /// One column: its SQL name, attribute name and kind.
    struct Column {
        var sqlName: String
        var attributeName: String
        var declaredType: String
        var primaryKeyPosition: Int
        /// Declared `NOT NULL`: the attribute is not optional.
        var notNull: Bool
        var kind: SQLiteColumnKind
    }

    /// How an object's rows are keyed.
    enum Key {
        /// The rowid column of `main."t"`, quoted: `rowid` (or `_rowid_`, `oid` when a column
        /// takes that name), or the `INTEGER PRIMARY KEY` column that aliases it.
        case rowid(String)
        /// Numbered in `aux.<table>` (`Z_PK`, then `k0…` the primary-key columns).
        case keyTable(String, columns: [String])
        /// Copied into `aux.<table>`, keyed by its rowid.
        case copy(String)
    }

    /// Reads the schema on `db` (a read-only connection to the file at `path`).
    static func read(_ db: Database, path: String) throws -> Result {
        var warnings: [String] = []
        var objects: [Object] = []
        var entityNames = Set<String>()
        let found = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM main.sqlite_master
            WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """)
        for row in found {
            let type: String = row[0], name: String = row[1], sql: String = row[2] ?? ""
            let mainSource = "main.\(sqlIdentifier(name))"
            do {
                _ = try Row.fetchOne(db, sql: "SELECT * FROM \(mainSource) LIMIT 0")
            } catch {
                warnings.append("\(path): \(type) \(name) skipped: cannot be read (\(Self.message(error)))")
                continue
            }
            let entityName = ForeignNames.unique(ForeignNames.sanitized(name, what: "\(type) \(name)", path: path, warnings: &warnings), in: &entityNames)
            let columns = try readColumns(db, object: name, mainSource: mainSource, path: path, warnings: &warnings)
            if columns.isEmpty {
                warnings.append("\(path): \(type) \(name) skipped: it has no columns Quarry can show")
                continue
            }
            let key = try key(type: type, name: name, sql: sql, columns: columns, index: objects.count)
            objects.append(Object(sqlName: name, entityName: entityName, isView: type == "view", columns: columns,
                                  mainSource: mainSource, key: key))
        }
        let links = try ForeignKeyLinks.read(db, objects: objects, path: path, warnings: &warnings)
        return try build(objects: objects, links: links, path: path, warnings: warnings)
    }

    /// The columns of `object` (hidden columns of virtual tables left out; generated kept).
    private static func readColumns(_ db: Database, object: String, mainSource: String, path: String,
                                    warnings: inout [String]) throws -> [Column] {
        var names = Set<String>()
        var columns: [Column] = []
        for row in try Row.fetchAll(db, sql: "PRAGMA main.table_xinfo(\(sqlIdentifier(object)))") {
            let sqlName: String = row["name"] ?? ""
            let hidden: Int = row["hidden"] ?? 0
            guard hidden != 1 else { continue }
            let declared: String = row["type"] ?? ""
            let kind = try SQLiteColumnKind.decide(db, column: sqlName, declaredType: declared, source: mainSource)
            let attribute = ForeignNames.unique(ForeignNames.sanitized(sqlName.isEmpty ? "column\(columns.count + 1)" : sqlName, what: "column \(object).\(sqlName)",
                                             path: path, warnings: &warnings), in: &names)
            columns.append(Column(sqlName: sqlName, attributeName: attribute, declaredType: declared,
                                  primaryKeyPosition: row["pk"] ?? 0, notNull: (row["notnull"] ?? 0) != 0, kind: kind))
        }
        return columns
    }

    /// How the rows of table or view `name` are keyed (see ``Key``).
    private static func key(type: String, name: String, sql: String, columns: [Column], index: Int) throws -> Key {
        if type == "view" { return .copy("q_view_\(index)") }
        let keyColumns = columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        let options = sql.range(of: ")", options: .backwards).map { String(sql[$0.upperBound...]) } ?? ""
        let withoutRowid = options.range(of: #"WITHOUT\s+ROWID"#, options: [.regularExpression, .caseInsensitive]) != nil
        if !withoutRowid {
            if keyColumns.count == 1, keyColumns[0].declaredType.uppercased() == "INTEGER" {
                return .rowid(sqlIdentifier(keyColumns[0].sqlName))
            }
            let taken = Set(columns.map { $0.sqlName.lowercased() })
            if let free = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }) { return .rowid(free) }
        }
        guard !keyColumns.isEmpty else { return .copy("q_table_\(index)") }
        return .keyTable("q_key_\(index)", columns: keyColumns.map(\.sqlName))
    }

    static func message(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}
