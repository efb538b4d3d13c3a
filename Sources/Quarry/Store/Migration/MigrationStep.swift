
/// One inferred migration between two models of an SQLite store: what happens to each table,
/// column and relationship, decided from the two layouts before anything is written.
///
/// A table whose rows stay in one old table and whose values keep their stored form is altered
/// in place: columns are added (`ALTER TABLE … ADD COLUMN`, with the default as the column's
/// default when every entity of the table has it), renamed and dropped; defaults fill `NULL`s of
/// attributes that became required; entity codes are renumbered when entities were added or
/// removed. Every other table is copied: a new table is filled by `INSERT … SELECT` from the old
/// rows, converting values, and swapped in. Relationship contents whose storage changed are
/// moved through their (source, destination) pairs.
struct MigrationStep: Sendable {
    let mapping: ModelMapping
    let oldLayout: StoreLayout
    let newLayout: StoreLayout
    /// Per new table.
    let tables: [TableMigration]
    /// Per new table, per member entity (position in the table's `entityIndices`), per column:
    /// what the column holds for that entity's rows.
    let contents: [[[ColumnContent]]]
    /// Added to the primary keys of an old entity's rows when its rows join a table that
    /// already holds rows of another old table (entity inheritance added).
    let keyOffsets: [Int: Int64]
    /// Relationship storages to fill from old pairs.
    let transfers: [RelationshipTransfer]
    /// Per new join table: the old join table kept as it is (renamed when its name changed), or
    /// `nil` when it is built from pairs.
    let keptJoinTables: [Int?]

    var source: ManagedObjectModel { mapping.source }
    var destination: ManagedObjectModel { mapping.destination }

    /// Plans the migration from `source` to `destination`. `maxKeys` gives each old table's
    /// largest primary key (for key offsets), by table name.
    init(source: ManagedObjectModel, destination: ManagedObjectModel, maxKeys: [String: Int64]) {
        let mapping = ModelMapping(source: source, destination: destination)
        let oldLayout = StoreLayout.of(source)
        let newLayout = StoreLayout.of(destination)
        self.mapping = mapping
        self.oldLayout = oldLayout
        self.newLayout = newLayout

        // Which old tables feed each new table, and the key offsets of merged tables.
        var feeding: [[Int]] = []
        var keyOffsets: [Int: Int64] = [:]
        for table in newLayout.tables {
            var olds: [Int] = []
            for e in table.entityIndices {
                if let s = mapping.entitySource[e], !olds.contains(oldLayout.entities[s].tableIndex) {
                    olds.append(oldLayout.entities[s].tableIndex)
                }
            }
            feeding.append(olds)
            var offset: Int64 = 0
            for (position, o) in olds.enumerated() {
                if position > 0 {
                    for member in oldLayout.tables[o].entityIndices { keyOffsets[member] = offset }
                }
                offset += maxKeys[oldLayout.tables[o].name] ?? 0
            }
        }
        self.keyOffsets = keyOffsets

        // Column contents, entity by entity (transfers are collected on the way).
        var transfers: [RelationshipTransfer] = []
        var transferred = Set<String>()
        var contents: [[[ColumnContent]]] = []
        let orderedByTable = Self.orderedToManys(in: newLayout, model: destination)
        for table in newLayout.tables {
            var perEntity: [[ColumnContent]] = []
            for e in table.entityIndices {
                perEntity.append(Self.contents(
                    of: e, in: table, mapping: mapping, oldLayout: oldLayout, newLayout: newLayout,
                    keyOffsets: keyOffsets, orderedToManys: orderedByTable[table.name] ?? [],
                    transfers: &transfers, transferred: &transferred))
            }
            contents.append(perEntity)
        }
        self.contents = contents

        // In place where the rows stay in one old table, each old table kept by one new table.
        var tables: [TableMigration] = []
        var claimed = Set<Int>()
        for (t, table) in newLayout.tables.enumerated() {
            let olds = feeding[t]
            if olds.isEmpty { tables.append(.create); continue }
            let root = table.entityIndices.first { destination.entities[$0].parentName == nil } ?? table.entityIndices[0]
            let rootSource = mapping.entitySource[root]
            let o = olds[0]
            if olds.count == 1, !claimed.contains(o), let rootSource, oldLayout.entities[rootSource].tableIndex == o,
               Self.canAlterInPlace(contents[t], table: table, oldTable: oldLayout.tables[o]) {
                claimed.insert(o)
                tables.append(.inPlace(oldTable: o))
            } else {
                let sources = table.entityIndices.compactMap { e in mapping.entitySource[e].map { (newEntity: e, oldEntity: $0) } }
                tables.append(.copy(sources: sources))
            }
        }
        self.tables = tables

        // Join tables: kept when the same relationship stores them the same way; else rebuilt.
        var keptJoinTables: [Int?] = []
        for (j, join) in newLayout.joinTables.enumerated() {
            keptJoinTables.append(Self.keptJoinTable(j, join, mapping: mapping, oldLayout: oldLayout, newLayout: newLayout, keyOffsets: keyOffsets))
            if keptJoinTables[j] == nil, let storing = Self.storingRelationship(ofJoinTable: j, layout: newLayout, model: destination),
               let transfer = Self.transfer(for: storing.entity, storing.relationship, mapping: mapping, oldLayout: oldLayout),
               transferred.insert("join:\(join.name)").inserted {
                transfers.append(transfer)
            }
        }
        self.keptJoinTables = keptJoinTables
        self.transfers = transfers
    }

    // MARK: - Column contents

    /// An ordered to-many stored through its inverse's foreign key, whose order column lives in
    /// the destination's table.
    private struct OrderedToMany {
        var owner: Int
        var relationship: Int
        var orderColumn: String
        var destinations: [Int]
    }

    /// The ordered to-manys of `model` stored through a foreign key, by the name of the table
    /// holding their order column: gathered once, so planning stays linear in the model.
    private static func orderedToManys(in layout: StoreLayout, model: ManagedObjectModel) -> [String: [OrderedToMany]] {
        var byTable: [String: [OrderedToMany]] = [:]
        for owner in model.entities {
            for (r, storage) in layout.entities[owner.index].toMany.enumerated() {
                guard case .foreignKey(let tableName, _, let order?, let destinations, _)? = storage else { continue }
                byTable[tableName, default: []].append(OrderedToMany(owner: owner.index, relationship: r, orderColumn: order, destinations: destinations))
            }
        }
        return byTable
    }

    private static func contents(
        of e: Int, in table: StoreLayout.Table, mapping: ModelMapping, oldLayout: StoreLayout, newLayout: StoreLayout,
        keyOffsets: [Int: Int64], orderedToManys: [OrderedToMany],
        transfers: inout [RelationshipTransfer], transferred: inout Set<String>
    ) -> [ColumnContent] {
        var result = [ColumnContent](repeating: .null, count: table.columns.count)
        let entity = mapping.destination.entities[e]
        let layout = newLayout.entities[e]
        let oldEntityIndex = mapping.entitySource[e]
        let oldEntity = oldEntityIndex.map { mapping.source.entities[$0] }
        let oldEntityLayout = oldEntityIndex.map { oldLayout.entities[$0] }
        let oldTable = oldEntityLayout.map { oldLayout.tables[$0.tableIndex] }

        for (a, attribute) in entity.attributes.enumerated() {
            guard let column = layout.attributeColumns[a] else { continue }
            let fill = !attribute.isOptional ? attribute.defaultValue.flatMap { $0.isNull ? nil : $0 } : nil
            guard let oldEntity, let oldTable, let oldEntityLayout, let s = mapping.attributeSource[e][a],
                  let oldColumn = oldEntityLayout.attributeColumns[s],
                  let conversion = AttributeConversion(from: oldEntity.attributes[s].type, to: attribute.type) else {
                // Added (or refused by the checks): the default for every existing row.
                result[column] = attribute.defaultValue.map { $0.isNull ? .null : .constant($0) } ?? .null
                continue
            }
            let name = oldTable.columns[oldColumn].name
            result[column] = fill.map { .oldWithDefault(column: name, conversion: conversion, default: $0) }
                ?? .old(column: name, conversion: conversion)
        }

        for (r, relationship) in entity.relationships.enumerated() {
            guard let columns = layout.toOne[r] else { continue }
            var carried = false
            if let oldTable, let oldEntityLayout, let s = mapping.relationshipSource[e][r],
               let oldColumns = oldEntityLayout.toOne[s] {
                let oldDestination = mapping.source.entities[oldColumns.destinationIndex]
                let offsetFree = oldDestination.selfAndDescendantIndices.allSatisfy { (keyOffsets[$0] ?? 0) == 0 }
                if offsetFree {
                    carried = true
                    let key = oldTable.columns[oldColumns.key].name
                    result[columns.key] = .old(column: key, conversion: .unchanged)
                    if let entityColumn = columns.entity {
                        result[entityColumn] = oldColumns.entity.map { .entityCodes(column: oldTable.columns[$0].name) }
                            ?? .impliedEntityCode(key: key, oldCode: oldColumns.destinationIndex)
                    }
                }
            }
            if !carried {
                let declaring = StoreLayout.declaringEntity(of: relationship.name, in: entity, model: mapping.destination)
                if let transfer = transfer(for: declaring.index, declaring.relationshipIndex(relationship.name)!, mapping: mapping, oldLayout: oldLayout),
                   transferred.insert("\(table.name).\(table.columns[columns.key].name)").inserted {
                    transfers.append(transfer)
                }
            }
        }

        // Order columns of ordered to-many relationships stored through this entity's to-one:
        // kept with the key column they order.
        for ordered in orderedToManys {
            let owner = mapping.destination.entities[ordered.owner], r2 = ordered.relationship
            guard ordered.destinations.contains(e), let c = table.columns.firstIndex(where: { $0.name == ordered.orderColumn }),
                  let inverseName = owner.relationships[r2].inverse, let r = entity.relationshipIndex(inverseName),
                  let key = layout.toOne[r]?.key, case .old = result[key],
                  let s = mapping.entitySource[owner.index], let sr = mapping.relationshipSource[owner.index][r2],
                  case .foreignKey(let oldTableName, _, let oldOrder?, _, _)? = oldLayout.entities[s].toMany[sr],
                  oldTableName == oldTable?.name else { continue }
            result[c] = .old(column: oldOrder, conversion: .unchanged)
        }
        return result
    }

    /// The old pairs that fill the new relationship `r` of entity `e`: from the relationship it
    /// maps to, or else from its inverse's.
    static func transfer(for e: Int, _ r: Int, mapping: ModelMapping, oldLayout: StoreLayout) -> RelationshipTransfer? {
        let entity = mapping.destination.entities[e]
        let relationship = entity.relationships[r]
        func kinds(_ entity: EntityDescription) -> [Int] {
            entity.selfAndDescendantIndices.compactMap { mapping.entitySource[$0] }
        }
        if let s = mapping.entitySource[e], let sr = mapping.relationshipSource[e][r] {
            return RelationshipTransfer(entity: e, relationship: r, oldEntity: s, oldRelationship: sr, reversed: false, oldSourceCodes: kinds(entity))
        }
        guard let inverseName = relationship.inverse, let destination = mapping.destination.entity(named: relationship.destination),
              let inverse = destination.relationshipIndex(inverseName),
              let s = mapping.entitySource[destination.index], let sr = mapping.relationshipSource[destination.index][inverse] else { return nil }
        return RelationshipTransfer(entity: e, relationship: r, oldEntity: s, oldRelationship: sr, reversed: true, oldSourceCodes: kinds(entity))
    }

    // MARK: - Decisions

    /// Whether a table can be altered where it stands: every column reads at most one old
    /// column, in its stored form, and no old column feeds two new ones.
    private static func canAlterInPlace(_ contents: [[ColumnContent]], table: StoreLayout.Table, oldTable: StoreLayout.Table) -> Bool {
        var sourceOf: [String: Int] = [:]
        for c in table.columns.indices {
            var olds = Set<String>()
            for perEntity in contents {
                let content = perEntity[c]
                if let old = content.oldColumn {
                    guard content.keepsStorage else { return false }
                    olds.insert(old)
                }
            }
            guard olds.count <= 1 else { return false }
            if let old = olds.first {
                guard sourceOf[old] == nil, oldTable.columns.contains(where: { $0.name == old }) else { return false }
                sourceOf[old] = c
            }
        }
        return true
    }

    /// The entity and relationship that store join table `j` (the non-reversed side), as the
    /// layout recorded them.
    static func storingRelationship(ofJoinTable j: Int, layout: StoreLayout, model: ManagedObjectModel) -> (entity: Int, relationship: Int)? {
        let join = layout.joinTables[j]
        return model.entities[join.storingEntity].relationshipIndex(join.relationship).map { (join.storingEntity, $0) }
    }

    private static func keptJoinTable(
        _ j: Int, _ join: StoreLayout.JoinTable, mapping: ModelMapping, oldLayout: StoreLayout, newLayout: StoreLayout,
        keyOffsets: [Int: Int64]
    ) -> Int? {
        guard let storing = storingRelationship(ofJoinTable: j, layout: newLayout, model: mapping.destination),
              let s = mapping.entitySource[storing.entity], let sr = mapping.relationshipSource[storing.entity][storing.relationship],
              case .joinTable(let old, let reversed, _)? = oldLayout.entities[s].toMany[sr], !reversed else { return nil }
        // Keys must not move, on either side.
        let oldSource = mapping.source.entities[s]
        let oldDestination = mapping.source.entity(named: oldSource.relationships[sr].destination)!
        let moved = (mapping.source.entities[oldSource.rootIndex].selfAndDescendantIndices + oldDestination.selfAndDescendantIndices)
            .contains { (keyOffsets[$0] ?? 0) != 0 }
        return moved ? nil : old
    }
}
