/// Join tables: Core Data keeps a many-to-many pair `E.r` ↔ `D.inv` in one table named after
/// one side, `Z_<n><R>` (`n` that side's entity number), with a column per end named after the
/// relationship pointing *to* that end: `Z_<nD><R>` holds `D`'s keys, `Z_<nE><INV>` `E`'s, and
/// an ordered side's positions in `Z_FOK_<that column without Z_>`. Everything is matched by
/// name, preferring the numbers Core Data would use.
extension CoreDataStoreSource {
    /// Adds the pairs of to-many `r` declared by `e`, when it is join-backed in Quarry's layout
    /// (many-to-many or inverse-less); a to-many through its inverse's key needs nothing here.
    mutating func buildJoin(_ e: EntityDescription, _ r: RelationshipDescription) {
        guard let destination = model.entity(named: r.destination) else { return }
        let inverse = r.inverse.flatMap { destination.relationship($0) }
        if let inverse, !inverse.isToMany { return }  // through the inverse's key
        let ownR = r.name.uppercased()
        let inv = inverse?.name.uppercased()
        let eNumber = numbers[e.index]
        let dNumber = numbers[destination.index]
        // Join tables have no Z_PK; their names are Z_<n><R> or Z_<n><INV>.
        var best: (rank: Int, name: String)?
        for (upper, name) in schema.tableNames where schema.columns(of: upper)?.contains(where: { $0.name.uppercased() == "Z_PK" }) == false {
            guard let rest = CoreDataStoreColumnMatcher.droppingNumber(upper, after: "Z_") else { continue }
            let n = CoreDataStoreColumnMatcher.number(String(upper.dropLast(rest.count)), after: "Z_")
            var rank: Int?
            if rest == ownR { rank = n == eNumber ? 0 : 2 }
            if let inv, rest == inv { rank = min(rank ?? 3, n == dNumber ? 1 : 3) }
            if let rank, rank < (best?.rank ?? Int.max) { best = (rank, name) }
        }
        guard let table = best?.name, let columns = schema.columns(of: table) else {
            warnings.append("\(e.name).\(r.name): no join table Z_<n>\(ownR) in the store; read as empty")
            return
        }
        let names = columns.map { $0.name }
        let pairColumns = names.filter { !$0.uppercased().hasPrefix("Z_FOK_") }
        func ending(_ upper: String) -> [String] {
            pairColumns.filter { c in
                guard let rest = CoreDataStoreColumnMatcher.droppingNumber(c.uppercased(), after: "Z_") else { return false }
                return rest == upper || CoreDataStoreColumnMatcher.number(rest, after: upper) != nil
            }.sorted { a, b in a.count != b.count ? a.count < b.count : a < b }
        }
        let destinationColumns = ending(ownR)
        guard let destinationColumn = destinationColumns.first(where: { c in dNumber.map { c.uppercased() == "Z_\($0)\(ownR)" } ?? false })
                ?? destinationColumns.first else {
            warnings.append("\(e.name).\(r.name): join table \(table) has no column Z_<n>\(ownR); read as empty")
            return
        }
        var sourceCandidates = inv.map(ending) ?? []
        sourceCandidates.removeAll { $0 == destinationColumn }
        if sourceCandidates.isEmpty { sourceCandidates = pairColumns.filter { $0 != destinationColumn } }
        guard let sourceColumn = sourceCandidates.first(where: { c in eNumber.flatMap { n in inv.map { c.uppercased() == "Z_\(n)\($0)" } } ?? false })
                ?? sourceCandidates.first else {
            warnings.append("\(e.name).\(r.name): join table \(table) has no column for \(e.name)'s keys; read as empty")
            return
        }
        var join = ForeignSource.JoinTable(
            from: "main.\(sqlIdentifier(table)) AS s",
            source: "s.\(sqlIdentifier(sourceColumn))",
            destination: "s.\(sqlIdentifier(destinationColumn))",
            destinationEntity: "\(destination.index)")
        if destination.hasSubentities,
           let root = schema.tableName(CoreDataStoreSchema.tableName(ofRoot: model.entities[destination.rootIndex].name)) {
            join.destinationEntity = "(SELECT \(entityCase("d.Z_ENT", among: destination.selfAndDescendantIndices)) FROM main.\(sqlIdentifier(root)) AS d WHERE d.Z_PK = s.\(sqlIdentifier(destinationColumn)))"
        }
        if r.isOrdered {
            let order = "Z_FOK_" + destinationColumn.dropFirst(2)
            if let column = names.first(where: { $0.uppercased() == order.uppercased() }) {
                join.order = "s.\(sqlIdentifier(column))"
            } else {
                warnings.append("\(e.name).\(r.name): join table \(table) has no \(order) order column; read in key order")
            }
        }
        source.joinTables[ForeignSource.JoinKey(entity: e.index, relationship: r.name)] = join
    }
}
