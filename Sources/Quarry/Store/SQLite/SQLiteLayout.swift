/// Where every entity, attribute and relationship of a model lives in an SQLite store: tables,
/// columns and join tables, computed once when a store opens.
///
/// The layout mimics Core Data so `sqlite3` users find their way: one table per root entity
/// (`Z_PK`, `Z_ENT`, `Z_OPT`, then one column per stored attribute of the root and all its
/// descendants), to-one relationships as foreign-key columns (plus `<rel>_ENT` when the
/// destination has sub-entities), ordered to-many relationships backed by an inverse foreign key
/// as a `Z_FOK_<inverse>` order column on the destination table, and many-to-many or
/// inverse-less to-many relationships as join tables `Z_<Entity>_<rel>`.
struct SQLiteLayout: Sendable {
    /// One table per root entity.
    struct Table: Sendable {
        /// The table's name (the root entity's name).
        var name: String
        /// Data columns after `Z_PK, Z_ENT, Z_OPT`, in table order.
        var columns: [Column]
        /// Every entity stored in the table (root and descendants), ascending.
        var entityIndices: [Int]
    }

    /// One data column.
    struct Column: Sendable {
        var name: String
        var sqlType: String
        /// Whether the column holds a foreign key (and so gets an index).
        var isForeignKey: Bool
    }

    /// A join table backing many-to-many or inverse-less to-many relationships.
    struct JoinTable: Sendable {
        var name: String
        /// The root table of the storing side's entity (`Z_SRC` rows).
        var sourceTable: String
        /// The root table of the destination (`Z_DST` rows).
        var destinationTable: String
    }

    /// Where a to-one relationship is stored.
    struct ToOneColumns: Sendable {
        /// Position of the primary-key column among the table's data columns.
        var key: Int
        /// Position of the `<rel>_ENT` column, when the destination has sub-entities.
        var entity: Int?
        /// The destination entity's index (the implied entity when there is no `_ENT` column).
        var destinationIndex: Int
    }

    /// Where a to-many relationship's contents are stored.
    enum ToManyStorage: Sendable {
        /// Through the inverse to-one's foreign key on the destination table.
        case foreignKey(table: String, column: String, orderColumn: String?, destinationIndices: [Int], tableIndices: [Int])
        /// In a join table; `reversed` when the other side of the many-to-many pair stores it.
        case joinTable(index: Int, reversed: Bool, ordered: Bool)
    }

    /// Everything needed to read and write rows of one concrete entity.
    struct EntityLayout: Sendable {
        var entityIndex: Int
        var tableIndex: Int
        /// Per attribute index: the data column position (`nil` for transient attributes).
        var attributeColumns: [Int?]
        /// Per relationship index: the to-one columns (`nil` for to-many).
        var toOne: [ToOneColumns?]
        /// Per relationship index: the to-many storage (`nil` for to-one).
        var toMany: [ToManyStorage?]
    }

    let tables: [Table]
    let joinTables: [JoinTable]
    let entities: [EntityLayout]
    /// Index into ``tables`` by root entity index.
    let tableIndexByRoot: [Int: Int]

    init(model: ManagedObjectModel) {
        let all = model.entities
        var tables: [Table] = []
        var tableIndexByRoot: [Int: Int] = [:]
        for root in all where root.index == root.rootIndex {
            tableIndexByRoot[root.index] = tables.count
            let members = [root.index] + root.selfAndDescendantIndices.filter { $0 != root.index }
            var columns: [Column] = []
            func add(_ name: String, _ type: String, foreignKey: Bool = false) {
                if !columns.contains(where: { $0.name == name }) { columns.append(Column(name: name, sqlType: type, isForeignKey: foreignKey)) }
            }
            for i in members {
                for a in all[i].definition.attributes where !a.isTransient { add(a.name, Self.sqlType(a.type)) }
            }
            for i in members {
                for r in all[i].definition.relationships where !r.isToMany {
                    add(r.name, "INTEGER", foreignKey: true)
                    if model.entity(named: r.destination)?.hasSubentities == true { add(r.name + "_ENT", "INTEGER") }
                }
            }
            // Order columns of ordered to-many relationships whose inverse (a to-one) lives here.
            for source in all {
                for r in source.definition.relationships where r.isToMany && r.isOrdered {
                    guard let inverse = r.inverse, let destination = model.entity(named: r.destination),
                          destination.rootIndex == root.index, destination.relationship(inverse)?.isToMany == false else { continue }
                    add("Z_FOK_" + inverse, "INTEGER")
                }
            }
            tables.append(Table(name: root.name, columns: columns, entityIndices: root.selfAndDescendantIndices))
        }

        var joinTables: [JoinTable] = []
        var joinTableIndex: [String: Int] = [:]
        var entities: [EntityLayout] = []
        for e in all {
            let tableIndex = tableIndexByRoot[e.rootIndex]!
            let table = tables[tableIndex]
            func position(_ name: String) -> Int? { table.columns.firstIndex { $0.name == name } }
            let attributeColumns = e.attributes.map { $0.isTransient ? nil : position($0.name) }
            var toOne: [ToOneColumns?] = []
            var toMany: [ToManyStorage?] = []
            for r in e.relationships {
                let destination = model.entity(named: r.destination)!
                if !r.isToMany {
                    toOne.append(ToOneColumns(key: position(r.name)!, entity: position(r.name + "_ENT"), destinationIndex: destination.index))
                    toMany.append(nil)
                    continue
                }
                toOne.append(nil)
                let inverse = r.inverse.flatMap { destination.relationship($0) }
                if let inverse, !inverse.isToMany {
                    let destinationTable = tables[tableIndexByRoot[destination.rootIndex]!]
                    toMany.append(.foreignKey(
                        table: destinationTable.name, column: inverse.name,
                        orderColumn: r.isOrdered ? "Z_FOK_" + inverse.name : nil,
                        destinationIndices: destination.selfAndDescendantIndices,
                        tableIndices: destinationTable.entityIndices))
                    continue
                }
                let owner = Self.declaringEntity(of: r.name, in: e, model: model)
                var storing = (entity: owner, relationship: r, destination: destination)
                var reversed = false
                if let inverse {
                    let otherOwner = Self.declaringEntity(of: inverse.name, in: destination, model: model)
                    if "\(otherOwner.name).\(inverse.name)" < "\(owner.name).\(r.name)" {
                        storing = (otherOwner, inverse, model.entity(named: inverse.destination)!)
                        reversed = true
                    }
                }
                let name = "Z_\(storing.entity.name)_\(storing.relationship.name)"
                let index: Int
                if let existing = joinTableIndex[name] {
                    index = existing
                } else {
                    index = joinTables.count
                    joinTableIndex[name] = index
                    joinTables.append(JoinTable(
                        name: name, sourceTable: tables[tableIndexByRoot[storing.entity.rootIndex]!].name,
                        destinationTable: tables[tableIndexByRoot[storing.destination.rootIndex]!].name))
                }
                toMany.append(.joinTable(index: index, reversed: reversed, ordered: r.isOrdered))
            }
            entities.append(EntityLayout(entityIndex: e.index, tableIndex: tableIndex, attributeColumns: attributeColumns,
                                         toOne: toOne, toMany: toMany))
        }
        self.tables = tables
        self.joinTables = joinTables
        self.entities = entities
        self.tableIndexByRoot = tableIndexByRoot
    }

    /// The table holding rows of the entity at `entityIndex`.
    func table(ofEntity entityIndex: Int) -> Table { tables[entities[entityIndex].tableIndex] }

    /// The ancestor (or `entity` itself) whose definition declares relationship `name`.
    static func declaringEntity(of name: String, in entity: EntityDescription, model: ManagedObjectModel) -> EntityDescription {
        var current = entity
        while !current.definition.relationships.contains(where: { $0.name == name }),
              let parent = current.parentName.flatMap(model.entity(named:)) {
            current = parent
        }
        return current
    }

    /// The declared SQL type of an attribute type's column.
    static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .binary: return "BLOB"
        case .decimal, .string, .uuid, .uri, .transformable: return "TEXT"
        }
    }
}
