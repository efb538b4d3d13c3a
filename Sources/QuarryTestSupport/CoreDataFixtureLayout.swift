import Foundation

/// Where Core Data's SQLite store puts each entity and property of a ``CoreDataFixture``'s model.
///
/// The conventions, as found in real stores (the corpus's and published schemas of Notes and
/// Photos):
/// - entities are numbered (`Z_ENT`) depth-first from 1: roots by name, each followed by its
///   sub-entities by name; `Z_PRIMARYKEY` lists them with their parent's number in `Z_SUPER`;
/// - each root entity has one table `Z<ROOT>` (its sub-entities' rows too): `Z_PK`, `Z_ENT`,
///   `Z_OPT`, then the columns of every entity of the hierarchy grouped by declared type
///   (integers and foreign keys, then reals and dates, then text, then blobs), within a group
///   entity by entity in `Z_ENT` order and by property name;
/// - a property's column is `Z<NAME>`; when two entities of a hierarchy both have `NAME`, the
///   later columns are `Z<NAME>1`, `Z<NAME>2`… (Notes' `ZTITLE1`, `ZTITLE2`, `ZACCOUNT3`);
/// - a to-one relationship is a foreign-key column `Z<REL>`, followed by `Z<n>_<REL>` holding
///   the target's `Z_ENT` when the destination (entity number `n`) has sub-entities, and by
///   `Z_FOK_<REL>` (the position) when the inverse is an ordered to-many;
/// - a many-to-many is a join table `Z_<n><REL>` named after the side whose entity name sorts
///   first: columns `Z_<n><INVERSE>` (that side's keys), `Z_<m><REL>` (the other side's), a
///   `Z_FOK_` column per ordered side, primary key the pair.
struct CoreDataFixtureLayout {
    struct Column {
        var name: String
        var type: String
    }

    struct Table {
        var name: String
        var root: String
        var columns: [Column]
        /// Indexed attributes' columns, then foreign-key columns, indexed as Core Data does
        /// (`<TABLE>_<COLUMN>_INDEX`).
        var indexed: [String]
    }

    /// The columns of one to-one relationship.
    struct ToOneColumns {
        var key: String
        var entity: String?
        var order: String?
    }

    struct JoinTable {
        var name: String
        /// The side naming the table: its entity and relationship.
        var entity: String, relationship: String
        var inverseEntity: String, inverse: String
        /// `entity`'s keys, then the other side's.
        var ownColumn: String, otherColumn: String
        /// Positions within `entity.relationship` (ordered) and within `inverseEntity.inverse`.
        var otherOrderColumn: String?, ownOrderColumn: String?
    }

    let entities: [String: CoreDataFixture.Entity]
    /// Entity names in `Z_ENT` order.
    let order: [String]
    let numbers: [String: Int]
    let tables: [Table]
    let joinTables: [JoinTable]
    /// Column of each attribute, by declaring entity then attribute name.
    let attributeColumns: [String: [String: String]]
    /// Columns of each to-one relationship, by declaring entity then relationship name.
    let toOneColumns: [String: [String: ToOneColumns]]

    init(_ model: [CoreDataFixture.Entity]) throws(CoreDataFixtureError) {
        var entities: [String: CoreDataFixture.Entity] = [:]
        for entity in model { entities[entity.name] = entity }
        for entity in model {
            if let parent = entity.parent, entities[parent] == nil { throw .unknownEntity(parent, referencedBy: "\(entity.name) as its parent") }
            for r in entity.relationships {
                guard let destination = entities[r.destination] else { throw .unknownEntity(r.destination, referencedBy: "\(entity.name).\(r.name)") }
                guard let inverseName = r.inverse else {
                    if r.isToMany { throw .unsupportedRelationship(entity: entity.name, relationship: r.name, reason: "a to-many needs an inverse here") }
                    continue
                }
                guard destination.relationships.contains(where: { $0.name == inverseName }) else {
                    throw .unknownProperty(entity: destination.name, property: inverseName)
                }
            }
        }
        self.entities = entities
        let children = Dictionary(grouping: model.filter { $0.parent != nil }, by: { $0.parent! })
        var order: [String] = []
        func visit(_ name: String) {
            order.append(name)
            for child in (children[name] ?? []).map(\.name).sorted() { visit(child) }
        }
        for root in model.filter({ $0.parent == nil }).map(\.name).sorted() { visit(root) }
        self.order = order
        var numbers: [String: Int] = [:]
        for (i, name) in order.enumerated() { numbers[name] = i + 1 }
        self.numbers = numbers

        var tables: [Table] = []
        var attributeColumns: [String: [String: String]] = [:]
        var toOneColumns: [String: [String: ToOneColumns]] = [:]
        for root in order where entities[root]!.parent == nil {
            let hierarchy = order.filter { Self.root(of: $0, in: entities) == root }
            var used: [String: Int] = [:]
            func unique(_ base: String) -> String {
                let n = used[base, default: 0]
                used[base] = n + 1
                return n == 0 ? base : "\(base)\(n)"
            }
            var columns = [Column(name: "Z_PK", type: "INTEGER PRIMARY KEY"), Column(name: "Z_ENT", type: "INTEGER"), Column(name: "Z_OPT", type: "INTEGER")]
            var indexedAttributes: [String] = []
            var indexed: [String] = []
            for group in 0..<4 {
                for name in hierarchy {
                    let entity = entities[name]!
                    for a in entity.attributes.filter({ $0.type.columnGroup == group }).sorted(by: { $0.name < $1.name }) {
                        let column = unique("Z" + a.name.uppercased())
                        attributeColumns[name, default: [:]][a.name] = column
                        if a.isIndexed { indexedAttributes.append(column) }
                        columns.append(Column(name: column, type: a.type.columnType))
                    }
                    guard group == 0 else { continue }
                    var orderColumns: [Column] = []
                    for r in entity.relationships.filter({ !$0.isToMany }).sorted(by: { $0.name < $1.name }) {
                        let key = unique("Z" + r.name.uppercased())
                        let suffix = key.dropFirst()
                        var slot = ToOneColumns(key: key)
                        columns.append(Column(name: key, type: "INTEGER"))
                        indexed.append(key)
                        if children[r.destination] != nil {
                            slot.entity = "Z\(numbers[r.destination]!)_\(suffix)"
                            columns.append(Column(name: slot.entity!, type: "INTEGER"))
                        }
                        if let inverse = r.inverse, entities[r.destination]!.relationships.first(where: { $0.name == inverse })?.isOrdered == true {
                            slot.order = "Z_FOK_\(suffix)"
                            orderColumns.append(Column(name: slot.order!, type: "INTEGER"))
                        }
                        toOneColumns[name, default: [:]][r.name] = slot
                    }
                    columns += orderColumns
                }
            }
            tables.append(Table(name: "Z" + root.uppercased(), root: root, columns: columns, indexed: indexedAttributes + indexed))
        }
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns

        var joinTables: [JoinTable] = []
        for name in order {
            for r in entities[name]!.relationships where r.isToMany {
                let inverse = entities[r.destination]!.relationships.first { $0.name == r.inverse }!
                guard inverse.isToMany else { continue }
                // Both sides describe the same table: keep the one whose (entity, name) sorts first.
                guard (name, r.name) <= (r.destination, inverse.name) else { continue }
                let own = "Z_\(numbers[name]!)\(inverse.name.uppercased())"
                let other = "Z_\(numbers[r.destination]!)\(r.name.uppercased())"
                if own == other {
                    throw .unsupportedRelationship(entity: name, relationship: r.name, reason: "a many-to-many that is its own inverse")
                }
                joinTables.append(JoinTable(
                    name: "Z_\(numbers[name]!)\(r.name.uppercased())",
                    entity: name, relationship: r.name, inverseEntity: r.destination, inverse: inverse.name,
                    ownColumn: own, otherColumn: other,
                    otherOrderColumn: r.isOrdered ? "Z_FOK_" + other.dropFirst(2) : nil,
                    ownOrderColumn: inverse.isOrdered ? "Z_FOK_" + own.dropFirst(2) : nil
                ))
            }
        }
        self.joinTables = joinTables
    }

    static func root(of name: String, in entities: [String: CoreDataFixture.Entity]) -> String {
        var current = name
        while let parent = entities[current]?.parent { current = parent }
        return current
    }

    func root(of name: String) -> String { Self.root(of: name, in: entities) }

    func table(of entity: String) -> Table { tables.first { $0.root == root(of: entity) }! }

    /// `name` and its ancestors, nearest first.
    func lineage(of name: String) -> [CoreDataFixture.Entity] {
        var result: [CoreDataFixture.Entity] = []
        var current: String? = name
        while let n = current, let entity = entities[n] {
            result.append(entity)
            current = entity.parent
        }
        return result
    }

    /// Whether `entity` is `ancestor` or one of its sub-entities.
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        lineage(of: entity).contains { $0.name == ancestor }
    }

    /// The `CREATE TABLE` and `CREATE INDEX` statements, in the order Core Data issues them:
    /// each root table followed by the join tables its entities name, then the indexes.
    var schemaSQL: [String] {
        var creates: [String] = []
        var indexes: [String] = []
        for table in tables {
            creates.append("CREATE TABLE \(table.name) ( " + table.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ") + " )")
            for column in table.indexed {
                indexes.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))")
            }
            for join in joinTables where root(of: join.entity) == table.root {
                let columns = [join.ownColumn, join.otherColumn] + [join.ownOrderColumn, join.otherOrderColumn].compactMap { $0 }
                creates.append("CREATE TABLE \(join.name) ( " + columns.map { "\($0) INTEGER" }.joined(separator: ", ")
                    + ", PRIMARY KEY (\(join.ownColumn), \(join.otherColumn)) )")
                indexes.append("CREATE INDEX \(join.name)_\(join.otherColumn)_INDEX ON \(join.name) (\(join.otherColumn), \(join.ownColumn))")
            }
        }
        return creates + indexes
    }
}
