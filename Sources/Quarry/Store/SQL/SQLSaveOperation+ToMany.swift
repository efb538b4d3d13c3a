extension SQLSaveOperation {
    /// Stores the new contents of each changed to-many relationship of `change`.
    ///
    /// Relationships backed by an inverse foreign key only need their order column (the
    /// membership is the destinations' foreign keys, written with those objects); join tables
    /// are brought in line with the list, touching only the rows that differ.
    func writeToMany(_ change: ObjectChange, rows: some SQLSaveRows) throws {
        let entityLayout = layout.entities[Int(change.id.entityIndex)]
        for (relationship, ids) in change.toMany.sorted(by: { $0.key < $1.key }) {
            guard relationship < entityLayout.toMany.count, let storage = entityLayout.toMany[relationship] else { continue }
            switch storage {
            case .foreignKey(let table, _, let orderColumn, _, _):
                guard let orderColumn, !ids.isEmpty else { continue }
                try rows.writeOrder(ids, table: table, column: orderColumn)
            case .joinTable(let index, let reversed, let ordered):
                let join = layout.joinTables[index]
                if reversed {
                    try writeReversed(join, owner: change.id, members: ids, rows: rows)
                } else {
                    try writeStored(join, source: change.id, destinations: ids, ordered: ordered, rows: rows)
                }
            }
        }
    }

    /// The storing side: `Z_SRC = source`, `Z_ORD` = position.
    private func writeStored(_ join: StoreLayout.JoinTable, source: ObjectID, destinations: [ObjectID], ordered: Bool,
                             rows: some SQLSaveRows) throws {
        let existing = try rows.joinKeys(join, side: .destination, otherSide: source.primaryKey)
        let wanted = destinations.map(\.primaryKey)
        if existing == wanted { return }
        if ordered {
            try rows.deleteJoinRows(join, side: .source, key: source.primaryKey)
            try rows.insertJoinRows(join, source: source.primaryKey,
                                    destinations: destinations.enumerated().map { ($0.element, Int64($0.offset)) })
            return
        }
        let wantedSet = Set(wanted)
        let existingSet = Set(existing)
        let gone = existing.filter { !wantedSet.contains($0) }
        if !gone.isEmpty {
            try rows.deleteJoinRows(join, side: .destination, keys: gone, otherSide: source.primaryKey)
        }
        var order = Int64(existing.count)
        var added: [(id: ObjectID, order: Int64)] = []
        for id in destinations where !existingSet.contains(id.primaryKey) {
            added.append((id, order))
            order += 1
        }
        if !added.isEmpty { try rows.insertJoinRows(join, source: source.primaryKey, destinations: added) }
    }

    /// The other side of a many-to-many pair: rows with `Z_DST = owner`.
    private func writeReversed(_ join: StoreLayout.JoinTable, owner: ObjectID, members: [ObjectID], rows: some SQLSaveRows) throws {
        let existing = Set(try rows.joinKeys(join, side: .source, otherSide: owner.primaryKey))
        let wanted = Set(members.map(\.primaryKey))
        let gone = existing.subtracting(wanted)
        if !gone.isEmpty {
            try rows.deleteJoinRows(join, side: .source, keys: Array(gone), otherSide: owner.primaryKey)
        }
        let added = members.lazy.map(\.primaryKey).filter { !existing.contains($0) }
        if !added.isEmpty { try rows.appendJoinRows(join, sources: Array(added), destination: owner) }
    }

    /// Removes `id` from every join table it can appear in (as source or destination).
    func deleteJoinRows(of id: ObjectID, rows: some SQLSaveRows) throws {
        let table = layout.table(ofEntity: Int(id.entityIndex)).name
        for join in layout.joinTables {
            if join.sourceTable == table { try rows.deleteJoinRows(join, side: .source, key: id.primaryKey) }
            if join.destinationTable == table { try rows.deleteJoinRows(join, side: .destination, key: id.primaryKey) }
        }
    }
}
