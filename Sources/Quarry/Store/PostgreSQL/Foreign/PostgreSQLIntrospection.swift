/// Reads the tables and views of one schema of a PostgreSQL database Quarry did not make from
/// `pg_catalog` into a model and the expressions that present its rows in Quarry's layout (see
/// ``ForeignPostgreSQLSchema``). Only the catalog is read: nothing is written, no row is
/// sampled.
///
/// - Each table, partitioned table, view, materialized view and foreign table becomes an entity
///   named as it is (`.` and control characters become `_`); each column an attribute (see
///   ``PostgreSQLColumnKind``); partitions are shown through their parent only. A relation the
///   role may not read is skipped with a warning naming it.
/// - The object ID is the primary key when it is one integer column; any other primary key
///   (composite, text, UUID…) is hashed to 63 bits (`hashtextextended` of its text form);
///   a table without a primary key is keyed by its row's physical position (`ctid`, which an
///   `UPDATE` moves); a view by a hash of its whole row (identical rows share an ID).
/// - Each single-column foreign key to a relation of the schema becomes a to-one relationship
///   (named as for SQLite files: the column without `_id`) with an inverse to-many.
struct PostgreSQLIntrospection {
    /// How one relation's rows are identified.
    enum Key: Equatable {
        /// One integer primary-key column (quoted).
        case integer(String)
        /// A primary key of other types or several columns (quoted), hashed.
        case hashed([String])
        /// No primary key: the row's physical position.
        case position
        /// A view: a hash of the whole row.
        case row
    }

    /// One column.
    struct Column {
        var sqlName: String
        var attributeName: String
        var notNull: Bool
        var kind: PostgreSQLColumnKind
    }

    /// One relation being read.
    struct Object {
        var oid: Int64
        var sqlName: String
        var entityName: String
        /// `pg_class.relkind`: `r`, `p`, `v`, `m`, `f`.
        var relkind: String
        /// The planner's estimate of its rows (`pg_class.reltuples`; -1 or 0 when never analysed).
        var estimatedRows: Int
        var columns: [Column]
        var key: Key
        /// The primary key's columns and their types (`format_type`), in key order; empty
        /// without one.
        var keyColumns: [(name: String, type: String)] = []

        var isView: Bool { relkind == "v" }
        /// `"schema"."relation"`.
        func qualified(schema: String) -> String { "\(sqlIdentifier(schema)).\(sqlIdentifier(sqlName))" }
    }

    /// One single-column foreign key, by object index.
    struct Link {
        var source: Int
        var column: String
        var destination: Int
        var referencedColumn: String
        var relationship: String
        var inverse: String
    }

    var objects: [Object] = []
    var links: [Link] = []
    var warnings: [String] = []

    /// Reads schema `schema` on `connection` (its URL shown as `shown` in warnings).
    /// - Throws: the connection's errors.
    static func read(_ connection: PostgreSQLConnection, schema: String, shown: String) throws -> PostgreSQLIntrospection {
        var result = PostgreSQLIntrospection()
        var byOID: [Int64: Int] = [:]
        var entityNames = Set<String>()
        let relations = try connection.query("""
            SELECT c.oid::bigint, c.relname::text, c.relkind::text, c.reltuples::double precision,
                   has_table_privilege(c.oid, 'SELECT')
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
            ORDER BY c.relname
            """, PostgreSQLStore.bindings(schema))
        for row in relations {
            let oid = try row[0].decode(Int64.self), name = try row[1].decode(String.self), kind = try row[2].decode(String.self)
            guard try row[4].decode(Bool.self) else {
                result.warnings.append("\(shown): \(what(kind)) \(name) skipped: the role \(connection.pool.url.user) may not read it")
                continue
            }
            let entity = ForeignNames.unique(
                ForeignNames.sanitized(name, what: "\(what(kind)) \(name)", path: shown, warnings: &result.warnings), in: &entityNames)
            byOID[oid] = result.objects.count
            let estimate = try row[3].decode(Double.self)
            result.objects.append(Object(oid: oid, sqlName: name, entityName: entity, relkind: kind,
                                         estimatedRows: estimate > 0 ? Int(estimate) : 0, columns: [], key: .row))
        }
        try readColumns(connection, schema: schema, shown: shown, byOID: byOID, into: &result)
        try readKeys(connection, schema: schema, byOID: byOID, into: &result)
        try readLinks(connection, schema: schema, shown: shown, byOID: byOID, into: &result)
        return result
    }

    /// What `relkind` is, in words.
    static func what(_ relkind: String) -> String {
        switch relkind {
        case "v": return "view"
        case "m": return "materialized view"
        case "f": return "foreign table"
        default: return "table"
        }
    }

    private static func readColumns(_ connection: PostgreSQLConnection, schema: String, shown: String, byOID: [Int64: Int],
                                    into result: inout PostgreSQLIntrospection) throws {
        var names = [Set<String>](repeating: [], count: result.objects.count)
        let rows = try connection.query("""
            SELECT a.attrelid::bigint, a.attname::text, a.attnotnull, b.typname::text,
                   (CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END)::bigint, b.typcategory::text
            FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_type t ON t.oid = a.atttypid
            JOIN pg_type b ON b.oid = (CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END)
            WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attrelid, a.attnum
            """, PostgreSQLStore.bindings(schema))
        for row in rows {
            guard let index = byOID[try row[0].decode(Int64.self)] else { continue }
            let name = try row[1].decode(String.self)
            let object = result.objects[index]
            let attribute = ForeignNames.unique(
                ForeignNames.sanitized(name, what: "column \(object.sqlName).\(name)", path: shown, warnings: &result.warnings),
                in: &names[index])
            let kind = PostgreSQLColumnKind.decide(column: sqlIdentifier(name), typeName: try row[3].decode(String.self),
                                                   typmod: Int(try row[4].decode(Int64.self)), category: try row[5].decode(String.self))
            result.objects[index].columns.append(Column(sqlName: name, attributeName: attribute, notNull: try row[2].decode(Bool.self), kind: kind))
        }
        for object in result.objects where object.columns.isEmpty {
            result.warnings.append("\(shown): \(what(object.relkind)) \(object.sqlName) has no columns")
        }
    }

    private static func readKeys(_ connection: PostgreSQLConnection, schema: String, byOID: [Int64: Int],
                                 into result: inout PostgreSQLIntrospection) throws {
        var keys: [Int: [(column: String, type: String, formatted: String)]] = [:]
        let rows = try connection.query("""
            SELECT i.indrelid::bigint, a.attname::text, t.typname::text, format_type(a.atttypid, a.atttypmod)
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
            JOIN pg_type t ON t.oid = a.atttypid
            WHERE n.nspname = $1 AND i.indisprimary
            ORDER BY i.indrelid, k.position
            """, PostgreSQLStore.bindings(schema))
        for row in rows {
            guard let index = byOID[try row[0].decode(Int64.self)] else { continue }
            keys[index, default: []].append((try row[1].decode(String.self), try row[2].decode(String.self), try row[3].decode(String.self)))
        }
        for index in result.objects.indices {
            let object = result.objects[index]
            if let key = keys[index] {
                result.objects[index].keyColumns = key.map { ($0.column, $0.formatted) }
                if key.count == 1, ["int2", "int4", "int8"].contains(key[0].type) {
                    result.objects[index].key = .integer(sqlIdentifier(key[0].column))
                } else {
                    result.objects[index].key = .hashed(key.map { sqlIdentifier($0.column) })
                }
            } else {
                // Tables and materialized views have a physical position; views and foreign
                // tables only their contents.
                result.objects[index].key = ["r", "m"].contains(object.relkind) ? .position : .row
            }
        }
    }

    private static func readLinks(_ connection: PostgreSQLConnection, schema: String, shown: String, byOID: [Int64: Int],
                                  into result: inout PostgreSQLIntrospection) throws {
        var taken = result.objects.map { Set($0.columns.map { $0.attributeName.lowercased() }) }
        let rows = try connection.query("""
            SELECT con.conrelid::bigint, con.confrelid::bigint, con.conname::text, cardinality(con.conkey)::bigint,
                   (SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = con.conrelid AND a.attnum = con.conkey[1]),
                   (SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = con.confrelid AND a.attnum = con.confkey[1]),
                   (SELECT r.relname::text FROM pg_class r WHERE r.oid = con.confrelid)
            FROM pg_constraint con
            JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND con.contype = 'f'
            ORDER BY c.relname, con.conname
            """, PostgreSQLStore.bindings(schema))
        for row in rows {
            guard let source = byOID[try row[0].decode(Int64.self)] else { continue }
            let column = try row[4].decode(String.self)
            let what = "\(shown): foreign key \(result.objects[source].sqlName)(\(column)) → \(try row[6].decode(String.self))"
            guard try row[3].decode(Int64.self) == 1 else {
                result.warnings.append("\(what) spans several columns: its columns are shown, not followed")
                continue
            }
            guard let destination = byOID[try row[1].decode(Int64.self)] else {
                result.warnings.append("\(what) names a relation outside schema \(schema) (or one the role may not read): its column is shown, not followed")
                continue
            }
            guard result.objects[source].columns.contains(where: { $0.sqlName == column }) else { continue }
            let relationship = ForeignNames.relationshipName(column, destination: result.objects[destination].entityName, taken: &taken[source])
            let inverse = ForeignNames.inverseName(of: result.objects[source].entityName, column: column, taken: &taken[destination])
            result.links.append(Link(source: source, column: column, destination: destination,
                                     referencedColumn: try row[5].decode(String.self), relationship: relationship, inverse: inverse))
        }
    }
}
