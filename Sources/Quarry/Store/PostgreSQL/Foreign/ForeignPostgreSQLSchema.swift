import Foundation

/// A schema of a PostgreSQL database Quarry did not make, read as it is: its tables and views
/// as entities (see `PostgreSQLIntrospection` for the model and `PostgreSQLColumnKind` for
/// the types), always read-only.
///
/// A ``PostgreSQLStore`` opened read-only (or without a model) on a schema that holds tables
/// but no Quarry store reads it this way (``PostgreSQLStore/foreign``): its connections are
/// read-only sessions (`default_transaction_read_only`), and every query is Quarry's usual
/// SQL over `WITH` clauses (`prelude`) named and shaped as the model's layout tables, each
/// `NOT MATERIALIZED`, so PostgreSQL's planner folds it into the query and the table's own
/// indexes stay usable. Nothing is created on the server, not even a temporary view.
///
/// ```swift
/// let store = try PostgreSQLStore(url: url, model: nil, options: .init(readOnly: true))
/// print(store.foreign?.warnings ?? [], store.model.entities.map(\.name))
/// ```
///
/// Limits: text compares and sorts by bytes, as in every Quarry store; `[c]` compares
/// PostgreSQL's `lower()` (ICU's when the server has it), `[d]` compares the text as it is, and
/// `localizedStandard` sorts by `lower()`; an object whose key is hashed (see
/// `PostgreSQLIntrospection`) is found by a scan, not an index.
public struct ForeignPostgreSQLSchema: Sendable {
    /// The schema read.
    public let schema: String
    /// The recovered model (names as the database has them).
    public let model: ManagedObjectModel
    /// Where the model came from, in words.
    public let modelSource = "the schema's catalog"
    /// What was skipped or guessed on the way, each naming the relation, column or key at fault.
    public let warnings: [String]
    /// The planner's estimate of each entity's rows (`pg_class.reltuples`; 0 when never
    /// analysed), by entity name: what a first screen can say before counting.
    public let estimatedRows: [String: Int]
    /// The `WITH … ` clause every query of the store starts with (ends with a space).
    let prelude: String
    /// How each relation read maps to its entity, by relation name: what a change feed needs
    /// to turn a changed row into an object ID.
    let relations: [String: Relation]

    /// One relation read: its entity, its kind, and how its rows are keyed.
    struct Relation: Sendable {
        var entity: Int
        /// `pg_class.relkind`.
        var relkind: String
        var key: PostgreSQLIntrospection.Key
        /// The primary key's columns (unquoted) and types, in key order.
        var keyColumns: [(name: String, type: String)]
    }

    /// The schema's model and prelude from what `introspection` read.
    /// - Parameter foldCollation: The collation `[c]` folds case under (`und-x-icu` when the
    ///   server has it).
    init(reading introspection: PostgreSQLIntrospection, schema: String, foldCollation: String) throws {
        let objects = introspection.objects.filter { !$0.columns.isEmpty }
        var definitions = objects.map { object in
            EntityDefinition(name: object.entityName, attributes: object.columns.map {
                AttributeDescription(name: $0.attributeName, type: $0.kind.type, isOptional: !$0.notNull)
            })
        }
        let index = Dictionary(uniqueKeysWithValues: objects.enumerated().map { ($0.element.oid, $0.offset) })
        var links: [(link: PostgreSQLIntrospection.Link, source: Int, destination: Int)] = []
        for link in introspection.links {
            guard let source = index[introspection.objects[link.source].oid],
                  let destination = index[introspection.objects[link.destination].oid] else { continue }
            links.append((link, source, destination))
            definitions[source].relationships.append(RelationshipDescription(
                name: link.relationship, destination: objects[destination].entityName, inverse: link.inverse))
            definitions[destination].relationships.append(RelationshipDescription(
                name: link.inverse, destination: objects[source].entityName, inverse: link.relationship, isToMany: true))
        }
        let model = try ManagedObjectModel(ModelDefinition(entities: definitions), namePolicy: .anyText)
        let layout = PostgreSQLLayout(model: model)
        // Each object's entity index (the model orders entities its own way).
        let entities = objects.map { model.entity(named: $0.entityName)!.index }
        var expressions: [StoreLayout.ColumnKey: String] = [:]
        for (object, entity) in zip(objects, entities) {
            for column in object.columns {
                expressions[.attribute(entity: entity, name: column.attributeName)] = column.kind.expression
            }
        }
        for (link, source, destination) in links {
            expressions[.toOneKey(entity: entities[source], relationship: link.relationship)] =
                Self.reference(from: "s.\(sqlIdentifier(link.column))", to: objects[destination],
                               column: link.referencedColumn, schema: schema)
        }
        let clauses = zip(objects, entities).map { object, entity in
            Self.clause(object: object, entity: entity, table: layout.base.entities[entity].tableIndex, layout: layout,
                        expressions: expressions, schema: schema, foldCollation: foldCollation)
        }
        self.schema = schema
        self.model = model
        self.warnings = introspection.warnings
        self.estimatedRows = Dictionary(objects.map { ($0.entityName, $0.estimatedRows) }, uniquingKeysWith: { a, _ in a })
        self.prelude = clauses.isEmpty ? "" : "WITH " + clauses.joined(separator: ", ") + " "
        self.relations = Dictionary(zip(objects, entities).map { object, entity in
            (object.sqlName, Relation(entity: entity, relkind: object.relkind, key: object.key, keyColumns: object.keyColumns))
        }, uniquingKeysWith: { a, _ in a })
    }

    /// `"<layout table>" AS NOT MATERIALIZED (SELECT <key> AS "Z_PK", … FROM <relation> AS s)`.
    static func clause(object: PostgreSQLIntrospection.Object, entity: Int, table: Int, layout: PostgreSQLLayout,
                       expressions: [StoreLayout.ColumnKey: String], schema: String, foldCollation: String) -> String {
        let q = PostgreSQLLayout.q
        let layoutTable = layout.base.tables[table]
        var byPosition = [String?](repeating: nil, count: layoutTable.columns.count)
        for (key, position) in layoutTable.positions where byPosition[position] == nil { byPosition[position] = expressions[key] }
        let version = ["r", "m"].contains(object.relkind) ? "s.xmin::text::bigint" : "0::bigint"
        var select = ["\(key(object.key, alias: "s")) AS \"Z_PK\"", "\(entity)::bigint AS \"Z_ENT\"", "\(version) AS \"Z_OPT\""]
        for (position, column) in layoutTable.columns.enumerated() {
            let kind = layout.kinds[table][position]
            let expression = byPosition[position] ?? "NULL::\(kind.declaration)"
            select.append("\(expression) AS \(q(column.name))")
            if layout.shadowed[table][position] {
                let folded = byPosition[position].map { "(lower(\($0) COLLATE \(q(foldCollation))) COLLATE \"C\")" } ?? "NULL::text"
                for (suffix, value) in zip(PostgreSQLLayout.shadowSuffixes, ["NULL::text", folded, "NULL::text", folded, folded]) {
                    select.append("\(value) AS \(q(column.name + suffix))")
                }
            }
        }
        return "\(q(layoutTable.name)) AS NOT MATERIALIZED (SELECT \(select.joined(separator: ", ")) FROM \(object.qualified(schema: schema)) AS s)"
    }

    /// The object key of a row of a relation keyed by `key`, aliased `alias`.
    static func key(_ key: PostgreSQLIntrospection.Key, alias: String) -> String {
        switch key {
        case .integer(let column): return "\(alias).\(column)"
        case .hashed(let columns) where columns.count == 1: return hashed("\(alias).\(columns[0])::text")
        case .hashed(let columns): return hashed("ROW(\(columns.map { "\(alias).\($0)" }.joined(separator: ", ")))::text")
        case .position:
            return "((\(alias).ctid::text::point)[0]::bigint * 65536 + (\(alias).ctid::text::point)[1]::bigint)"
        case .row: return hashed("\(alias)::text")
        }
    }

    /// A text's 64-bit hash without its sign bit.
    static func hashed(_ text: String) -> String {
        "(hashtextextended(\(text), 0) & 9223372036854775807)"
    }

    /// The object key of the `destination` row whose `column` equals `value`: computed from the
    /// value itself when `column` is the destination's key, else looked up.
    static func reference(from value: String, to destination: PostgreSQLIntrospection.Object, column: String, schema: String) -> String {
        let quoted = sqlIdentifier(column)
        switch destination.key {
        case .integer(let key) where key == quoted: return value
        case .hashed(let keys) where keys == [quoted]: return hashed("\(value)::text")
        default:
            return "(SELECT \(key(destination.key, alias: "d")) FROM \(destination.qualified(schema: schema)) AS d WHERE d.\(quoted) = \(value) LIMIT 1)"
        }
    }
}
