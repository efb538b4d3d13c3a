/// The SQL that reads a relationship's (source, destination) pairs out of an old store, for a
/// ``RelationshipTransfer``: columns `s`, `se` (source key and entity code), `d`, `de`
/// (destination key and entity code) and `o` (order, or `NULL`), in the *new* model's keys and
/// entity codes. Pairs whose source or destination entity was removed are left out.
struct RelationshipPairs {
    let step: MigrationStep

    /// The `SELECT` for `transfer`.
    func select(_ transfer: RelationshipTransfer) -> String {
        let old = oldPairs(entity: transfer.oldEntity, relationship: transfer.oldRelationship)
        let oriented = transfer.reversed ? "SELECT d AS s, de AS se, s AS d, se AS de, o FROM (\(old)) AS old_pairs" : old
        let sourceCodes = transfer.oldSourceCodes.map(String.init).joined(separator: ", ")
        return """
            SELECT \(key("s", "se")) AS s, \(code("se")) AS se, \(key("d", "de")) AS d, \(code("de")) AS de, o \
            FROM (\(oriented)) AS oriented_pairs WHERE se IN (\(sourceCodes)) AND \(code("de")) IS NOT NULL
            """
    }

    /// Pairs in the old store's keys and codes.
    private func oldPairs(entity e: Int, relationship r: Int) -> String {
        let layout = step.oldLayout
        let model = step.source
        let entity = model.entities[e]
        let table = sqlIdentifier(layout.table(ofEntity: e).name)
        if let columns = layout.entities[e].toOne[r] {
            let columnNames = layout.table(ofEntity: e).columns
            let keyColumn = sqlIdentifier(columnNames[columns.key].name)
            let entityCode = columns.entity.map { sqlIdentifier(columnNames[$0].name) } ?? String(columns.destinationIndex)
            return "SELECT \"Z_PK\" AS s, \"Z_ENT\" AS se, \(keyColumn) AS d, \(entityCode) AS de, CAST(NULL AS INTEGER) AS o FROM \(table) WHERE \(keyColumn) IS NOT NULL"
        }
        switch layout.entities[e].toMany[r]! {
        case .foreignKey(let destinationTable, let column, let orderColumn, let destinationIndices, _):
            // The inverse to-one on the destination names the source (and its entity, when it varies).
            let destination = model.entity(named: entity.relationships[r].destination)!
            let inverse = destination.relationshipIndex(entity.relationships[r].inverse!)!
            let inverseColumns = layout.entities[destination.index].toOne[inverse]!
            let sourceCode = inverseColumns.entity.map { sqlIdentifier(layout.table(ofEntity: destination.index).columns[$0].name) }
                ?? String(inverseColumns.destinationIndex)
            let order = orderColumn.map(sqlIdentifier) ?? "CAST(NULL AS INTEGER)"
            return """
                SELECT \(sqlIdentifier(column)) AS s, \(sourceCode) AS se, \"Z_PK\" AS d, \"Z_ENT\" AS de, \(order) AS o \
                FROM \(sqlIdentifier(destinationTable)) WHERE \(sqlIdentifier(column)) IS NOT NULL \
                AND \"Z_ENT\" IN (\(destinationIndices.map(String.init).joined(separator: ", ")))
                """
        case .joinTable(let index, let reversed, _):
            let join = layout.joinTables[index]
            let sources = "\(sqlIdentifier(join.name)) AS j JOIN \(sqlIdentifier(join.sourceTable)) AS t ON t.\"Z_PK\" = j.\"Z_SRC\""
            return reversed
                ? "SELECT j.\"Z_DST\" AS s, j.\"Z_DST_ENT\" AS se, j.\"Z_SRC\" AS d, t.\"Z_ENT\" AS de, CAST(NULL AS INTEGER) AS o FROM \(sources)"
                : "SELECT j.\"Z_SRC\" AS s, t.\"Z_ENT\" AS se, j.\"Z_DST\" AS d, j.\"Z_DST_ENT\" AS de, j.\"Z_ORD\" AS o FROM \(sources)"
        }
    }

    /// An old key plus the offset of its entity's rows (see ``MigrationStep/keyOffsets``).
    private func key(_ column: String, _ codeColumn: String) -> String {
        let moved = step.keyOffsets.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        guard !moved.isEmpty else { return column }
        return "\(column) + CASE \(codeColumn) " + moved.map { "WHEN \($0.key) THEN \($0.value)" }.joined(separator: " ") + " ELSE 0 END"
    }

    /// An old entity code renumbered for the new model (`NULL` for a removed entity).
    private func code(_ column: String) -> String {
        step.entityCodeCase(column)
    }
}

extension MigrationStep {
    /// `CASE column WHEN old THEN new … END`: old entity codes renumbered (`NULL` for removed
    /// entities); `column` itself when no code changes.
    func entityCodeCase(_ column: String) -> String {
        let pairs = mapping.entityDestination.enumerated().map { (old: $0.offset, new: $0.element) }
        if pairs.allSatisfy({ $0.new == $0.old }) { return column }
        return "CASE \(column) " + pairs.map { "WHEN \($0.old) THEN \($0.new.map(String.init) ?? "NULL")" }.joined(separator: " ") + " END"
    }

    /// Whether any old entity code differs in the new model (or was removed).
    var renumbersEntities: Bool {
        mapping.entityDestination.enumerated().contains { $0.element != $0.offset }
    }
}
