import Foundation

extension PostgreSQLStore {
    /// `true`: a query under a cancelled ``QueryCancellation`` is cancelled on the server.
    public var cancelsQueries: Bool { true }

    var rowReader: PostgreSQLRowReader { PostgreSQLRowReader(layout: layout, model: model, prelude: prelude) }

    /// A compiler of queries into this store's SQL.
    func compiler() -> SQLQueryCompiler<PostgreSQLDialect> {
        SQLQueryCompiler(dialect: PostgreSQLDialect(layout: layout, regexCollation: regexCollation), layout: layout.base, model: model)
    }

    /// The committed state of each of `ids` that still exists (`"Z_PK" = ANY($1)`, 10,000 keys
    /// per statement and root table).
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        guard !ids.isEmpty else { return [:] }
        let reader = rowReader
        return try read { try reader.snapshots(for: ids, connection: $0) }
    }

    /// The committed contents of to-many relationship `relationship` of `id`, in the SQLite
    /// store's order (order column or `Z_ORD`, then primary key); for a to-one, its destination.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        let entity = model.entities[Int(id.entityIndex)]
        let entityLayout = layout.base.entities[entity.index]
        if entityLayout.toOne[relationship] != nil {
            return try snapshots(for: [id])[id]?.toOne[relationship].map { [$0] } ?? []
        }
        let q = PostgreSQLLayout.q
        let sql: String
        switch entityLayout.toMany[relationship]! {
        case .foreignKey(let table, let column, let orderColumn, let destinations, let tableEntities):
            var where_ = "\(q(column)) = $1"
            if Set(destinations) != Set(tableEntities) {
                where_ += " AND \"Z_ENT\" IN (\(destinations.map(String.init).joined(separator: ", ")))"
            }
            let order = orderColumn.map { "\(q($0)) NULLS FIRST, \"Z_PK\"" } ?? "\"Z_PK\""
            sql = prelude + "SELECT \"Z_PK\", \"Z_ENT\" FROM \(q(table)) WHERE \(where_) ORDER BY \(order)"
        case .joinTable(let index, let reversed, _):
            let join = layout.base.joinTables[index]
            if reversed {
                sql = prelude + """
                    SELECT j."Z_SRC", t."Z_ENT" FROM \(q(join.name)) j JOIN \(q(join.sourceTable)) t \
                    ON t."Z_PK" = j."Z_SRC" WHERE j."Z_DST" = $1 ORDER BY j."Z_SRC"
                    """
            } else {
                sql = prelude + "SELECT \"Z_DST\", \"Z_DST_ENT\" FROM \(q(join.name)) WHERE \"Z_SRC\" = $1 ORDER BY \"Z_ORD\", \"Z_DST\""
            }
        }
        var b = PGBindings()
        b.append(id.primaryKey)
        return try read { connection in
            try connection.query(sql, b).map { row in
                return ObjectID(entityIndex: Int(try PostgreSQLValues.integer(row[1]) ?? 0), primaryKey: try PostgreSQLValues.integer(row[0]) ?? 0)
            }
        }
    }

    /// The IDs of the objects `request` selects, filtered and ordered by the server with the
    /// in-memory store's semantics (see `PostgreSQLDialect`).
    /// - Throws: ``QueryError`` for an invalid predicate or sort key (nothing runs).
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] {
        try keyedIDs(for: request, keyPaths: []).map(\.id)
    }

    /// How many objects `request` selects, counted by the server.
    public func count(for request: StoreQuery) throws -> Int {
        var compiler = compiler()
        let sql = try prelude + compiler.select(request, columns: ["1"]).countSQL.text
        let binds = PostgreSQLParameter.bindings(compiler.dialect.parameters)
        return try read { connection in
            try connection.query(sql, binds).first.flatMap { try PostgreSQLValues.integer($0[0]) }.map(Int.init) ?? 0
        }
    }

    /// The IDs `request` selects with the values of `keyPaths`, in order, decoded as the rows
    /// stream in (no array of rows is kept, so a million results take one pass).
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        if let ids = request.restrictedTo, ids.isEmpty { return [] }
        var compiler = compiler()
        let outputs = try keyPaths.map { try compiler.outputColumn($0, entity: request.entity) }
        let table = layout.base.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? table.entityIndices[0] : nil
        let idColumns = single == nil ? [#"t0."Z_PK""#, #"t0."Z_ENT""#] : [#"t0."Z_PK""#]
        let sql = try prelude + compiler.select(request, columns: idColumns + outputs.map(\.sql)).sql.text
        let binds = PostgreSQLParameter.bindings(compiler.dialect.parameters)
        let first = idColumns.count
        let types = outputs.map(\.type)
        var rows: [(id: ObjectID, keys: [Value])] = []
        try read { connection in
            try connection.forEachRow(sql, binds) { row in
                let entity = try single ?? Int(PostgreSQLValues.integer(row[1]) ?? 0)
                var keys: [Value] = []
                keys.reserveCapacity(types.count)
                for (i, type) in types.enumerated() {
                    let cell = row[first + i]
                    if let type { keys.append(try PostgreSQLValues.decode(cell, type: type)) } else { keys.append(try PostgreSQLValues.integer(cell).map(Value.integer) ?? .null) }
                }
                rows.append((ObjectID(entityIndex: entity, primaryKey: try PostgreSQLValues.integer(row[0]) ?? 0), keys))
            }
        }
        return rows
    }
}
