/// Where every entity, attribute and relationship of a model lives in an SQLite store: tables,
/// columns and join tables, computed once when a store opens.
///
/// The layout mimics Core Data so `sqlite3` users find their way: one table per root entity
/// (`Z_PK`, `Z_ENT`, `Z_OPT`, then one column per stored attribute of the root and all its
/// descendants), to-one relationships as foreign-key columns (plus `<rel>_ENT` when the
/// destination has sub-entities), ordered to-many relationships backed by an inverse foreign key
/// as a `Z_FOK_<inverse>` order column on the destination table, and many-to-many or
/// inverse-less to-many relationships as join tables `Z_<Entity>_<rel>`.
///
/// Those are the natural names; a name that would clash in SQLite (case-insensitively, with
/// Quarry's own, or a sibling's column of another SQL type) is replaced by the one rule in
/// `StoreLayout+Naming.swift`, so every query goes through the layout's names, never a
/// property's.
struct StoreLayout: Sendable {
    /// One table per root entity.
    struct Table: Sendable {
        /// The table's name (the root entity's, unless that clashes: see ``nameTables(_:)``).
        var name: String
        /// Data columns after `Z_PK, Z_ENT, Z_OPT`, in table order.
        var columns: [Column]
        /// Every entity stored in the table (root and descendants), ascending.
        var entityIndices: [Int]
        /// Which property (or bookkeeping value) each data column holds: its position in
        /// ``columns`` by key (siblings sharing a column share its position).
        var positions: [ColumnKey: Int]
    }

    /// One data column.
    struct Column: Sendable {
        /// The property's name, unless that clashes (see ``nameColumns(_:)``).
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
        /// The entity declaring the relationship stored here (`Z_SRC` rows are its objects).
        var storingEntity: Int
        /// The relationship stored here, by name.
        var relationship: String
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

    /// The layout of `model`, computed once per model and kept with it (a migration and the
    /// stores opening a model ask for it several times).
    static func of(_ model: ManagedObjectModel) -> StoreLayout {
        model.derived.value { StoreLayout(model: model) }
    }

    init(model: ManagedObjectModel) {
        let all = model.entities
        var roots: [EntityDescription] = []
        var tableIndexByRoot: [Int: Int] = [:]
        for root in all where root.index == root.rootIndex {
            tableIndexByRoot[root.index] = roots.count
            roots.append(root)
        }
        let tableNames = Self.nameTables(roots.map(\.name))
        var tables: [Table] = []
        let orderColumns = Self.orderColumnRequests(model: model)
        for (t, root) in roots.enumerated() {
            let (columns, byKey) = Self.nameColumns(Self.columnRequests(root: root, model: model, orderColumns: orderColumns[root.index] ?? []))
            tables.append(Table(name: tableNames[t], columns: columns, entityIndices: root.selfAndDescendantIndices, positions: byKey))
        }

        // Join tables, keyed by the storing entity and relationship (their natural names can
        // coincide: `A_B`.`c` and `A`.`B_c` are both `Z_A_B_c`), named once all are known.
        var joinKeys: [String: Int] = [:]
        var joinNaturals: [String] = []
        var joinEnds: [(source: String, destination: String)] = []
        var joinStoring: [(entity: Int, relationship: String)] = []
        var entities: [EntityLayout] = []
        for e in all {
            let tableIndex = tableIndexByRoot[e.rootIndex]!
            let byKey = tables[tableIndex].positions
            let attributeColumns = e.attributes.map { a in
                a.isTransient ? nil : byKey[.attribute(entity: Self.declaringEntity(ofAttribute: a.name, in: e, model: model).index, name: a.name)]
            }
            var toOne: [ToOneColumns?] = []
            var toMany: [ToManyStorage?] = []
            for r in e.relationships {
                let destination = model.entity(named: r.destination)!
                if !r.isToMany {
                    let owner = Self.declaringEntity(of: r.name, in: e, model: model).index
                    toOne.append(ToOneColumns(key: byKey[.toOneKey(entity: owner, relationship: r.name)]!,
                                              entity: byKey[.toOneEntity(entity: owner, relationship: r.name)],
                                              destinationIndex: destination.index))
                    toMany.append(nil)
                    continue
                }
                toOne.append(nil)
                let inverse = r.inverse.flatMap { destination.relationship($0) }
                if let inverse, !inverse.isToMany {
                    let destinationTableIndex = tableIndexByRoot[destination.rootIndex]!
                    let destinationTable = tables[destinationTableIndex]
                    let inverseOwner = Self.declaringEntity(of: inverse.name, in: destination, model: model).index
                    let at = destinationTable.positions
                    toMany.append(.foreignKey(
                        table: destinationTable.name,
                        column: destinationTable.columns[at[.toOneKey(entity: inverseOwner, relationship: inverse.name)]!].name,
                        orderColumn: r.isOrdered ? destinationTable.columns[at[.order(entity: inverseOwner, inverse: inverse.name)]!].name : nil,
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
                let key = "\(storing.entity.index).\(storing.relationship.name)"
                let index: Int
                if let existing = joinKeys[key] {
                    index = existing
                } else {
                    index = joinNaturals.count
                    joinKeys[key] = index
                    joinNaturals.append("Z_\(storing.entity.name)_\(storing.relationship.name)")
                    joinEnds.append((tables[tableIndexByRoot[storing.entity.rootIndex]!].name,
                                     tables[tableIndexByRoot[storing.destination.rootIndex]!].name))
                    joinStoring.append((storing.entity.index, storing.relationship.name))
                }
                toMany.append(.joinTable(index: index, reversed: reversed, ordered: r.isOrdered))
            }
            entities.append(EntityLayout(entityIndex: e.index, tableIndex: tableIndex, attributeColumns: attributeColumns,
                                         toOne: toOne, toMany: toMany))
        }
        // Join tables share the namespace of the root tables, which keep their names first.
        let joinNames = Array(Self.nameTables(roots.map(\.name) + joinNaturals).dropFirst(roots.count))
        self.tables = tables
        self.joinTables = joinNaturals.indices.map {
            JoinTable(name: joinNames[$0], sourceTable: joinEnds[$0].source, destinationTable: joinEnds[$0].destination,
                      storingEntity: joinStoring[$0].entity, relationship: joinStoring[$0].relationship)
        }
        self.entities = entities
        self.tableIndexByRoot = tableIndexByRoot
    }

    /// The columns the table of `root` needs, in table order before naming: every stored
    /// attribute of the root and its descendants, then their to-ones (`<rel>_ENT` beside the key
    /// when the destination has sub-entities), then the order columns of ordered to-manys whose
    /// inverse to-one lives here.
    /// `orderColumns` are the root's part of ``orderColumnRequests(model:)``.
    static func columnRequests(root: EntityDescription, model: ManagedObjectModel, orderColumns: [ColumnRequest]) -> [ColumnRequest] {
        let all = model.entities
        let members = [root.index] + root.selfAndDescendantIndices.filter { $0 != root.index }
        var requests: [ColumnRequest] = []
        for i in members {
            let users = Set(all[i].selfAndDescendantIndices)
            for a in all[i].definition.ownStoredAttributes where !a.isTransient {
                requests.append(ColumnRequest(key: .attribute(entity: i, name: a.name), natural: a.name, sqlType: sqlType(a.type),
                                              isForeignKey: false, owner: all[i].name, users: users))
            }
        }
        for i in members {
            let users = Set(all[i].selfAndDescendantIndices)
            for r in all[i].definition.relationships where !r.isToMany {
                requests.append(ColumnRequest(key: .toOneKey(entity: i, relationship: r.name), natural: r.name, sqlType: "INTEGER",
                                              isForeignKey: true, owner: all[i].name, users: users))
                if model.entity(named: r.destination)?.hasSubentities == true {
                    requests.append(ColumnRequest(key: .toOneEntity(entity: i, relationship: r.name), natural: r.name + "_ENT",
                                                  sqlType: "INTEGER", isForeignKey: false, owner: all[i].name, users: users))
                }
            }
        }
        return requests + orderColumns
    }

    /// The order columns of every ordered to-many whose inverse is a to-one, by the root entity
    /// whose table holds them (the inverse's), in entity order: one pass over the model, so a
    /// layout of many tables stays linear.
    static func orderColumnRequests(model: ManagedObjectModel) -> [Int: [ColumnRequest]] {
        var byRoot: [Int: [ColumnRequest]] = [:]
        for source in model.entities {
            for r in source.definition.relationships where r.isToMany && r.isOrdered {
                guard let inverse = r.inverse, let destination = model.entity(named: r.destination),
                      destination.relationship(inverse)?.isToMany == false else { continue }
                let owner = declaringEntity(of: inverse, in: destination, model: model)
                byRoot[destination.rootIndex, default: []].append(
                    ColumnRequest(key: .order(entity: owner.index, inverse: inverse), natural: "Z_FOK_" + inverse,
                                  sqlType: "INTEGER", isForeignKey: false, owner: owner.name,
                                  users: Set(owner.selfAndDescendantIndices)))
            }
        }
        return byRoot
    }

    /// The table holding rows of the entity at `entityIndex`.
    func table(ofEntity entityIndex: Int) -> Table { tables[entities[entityIndex].tableIndex] }

    /// The ancestor (or `entity` itself) whose definition declares relationship `name`.
    static func declaringEntity(of name: String, in entity: EntityDescription, model: ManagedObjectModel) -> EntityDescription {
        declaringEntity(in: entity, model: model) { $0.relationships.contains { $0.name == name } }
    }

    /// The ancestor (or `entity` itself) whose definition declares attribute `name`.
    static func declaringEntity(ofAttribute name: String, in entity: EntityDescription, model: ManagedObjectModel) -> EntityDescription {
        declaringEntity(in: entity, model: model) { $0.attributes.contains { $0.name == name } }
    }

    /// The nearest of `entity` and its ancestors whose definition satisfies `declares`.
    private static func declaringEntity(in entity: EntityDescription, model: ManagedObjectModel,
                                        declares: (EntityDefinition) -> Bool) -> EntityDescription {
        var current = entity
        while !declares(current.definition), let parent = current.parentName.flatMap(model.entity(named:)) {
            current = parent
        }
        return current
    }

    /// The column of attribute `attribute` of the entity at `entityIndex` (`nil` when transient).
    func attributeColumn(_ attribute: Int, ofEntity entityIndex: Int) -> String? {
        let layout = entities[entityIndex]
        return layout.attributeColumns[attribute].map { tables[layout.tableIndex].columns[$0].name }
    }

    /// The foreign-key column of to-one relationship `relationship` of the entity at `entityIndex`.
    func toOneKeyColumn(_ relationship: Int, ofEntity entityIndex: Int) -> String {
        let layout = entities[entityIndex]
        return tables[layout.tableIndex].columns[layout.toOne[relationship]!.key].name
    }

    /// The `<rel>_ENT` column of to-one relationship `relationship` of the entity at
    /// `entityIndex` (`nil` when its destination has no sub-entities).
    func toOneEntityColumn(_ relationship: Int, ofEntity entityIndex: Int) -> String? {
        let layout = entities[entityIndex]
        return layout.toOne[relationship]!.entity.map { tables[layout.tableIndex].columns[$0].name }
    }

    /// The declared SQL type of an attribute type's column.
    static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .binary: return "BLOB"
        case .decimal, .string, .uuid, .uri, .transformable: return "TEXT"
        // Never stored (the resolver requires Undefined attributes to be transient); BLOB
        // affinity would keep any value as given.
        case .undefined: return "BLOB"
        }
    }
}
