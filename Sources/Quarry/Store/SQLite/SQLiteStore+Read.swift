import GRDB

extension SQLiteStore {
    var rowReader: SQLiteRowReader { SQLiteRowReader(layout: layout, statements: statements, model: model) }

    /// A compiler of queries into this store's SQL.
    func queryCompiler() -> SQLQueryCompiler<SQLiteDialect> {
        SQLQueryCompiler(dialect: SQLiteDialect(), layout: layout, model: model)
    }

    /// The committed state of each of `ids` that still exists, read in batches of 500 keys per
    /// root table in one read transaction.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        guard !ids.isEmpty else { return [:] }
        let reader = rowReader
        return try read { try reader.snapshots(for: ids, db: $0) }
    }

    /// The committed contents of to-many relationship `relationship` of `id`: for relationships
    /// stored through an inverse foreign key, by the `Z_FOK_` order column when ordered, else by
    /// primary key; for join tables by `Z_ORD`. For a to-one relationship, its destination.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        let entity = model.entities[Int(id.entityIndex)]
        let entityLayout = layout.entities[entity.index]
        if entityLayout.toOne[relationship] != nil {
            return try snapshots(for: [id])[id]?.toOne[relationship].map { [$0] } ?? []
        }
        let sql: String
        switch entityLayout.toMany[relationship]! {
        case .foreignKey(let table, let column, let orderColumn, let destinations, let tableEntities):
            var where_ = "\(sqlIdentifier(column)) = ?"
            if Set(destinations) != Set(tableEntities) {
                where_ += " AND Z_ENT IN (\(destinations.map(String.init).joined(separator: ", ")))"
            }
            let order = orderColumn.map { "\(sqlIdentifier($0)), Z_PK" } ?? "Z_PK"
            sql = "SELECT Z_PK, Z_ENT FROM \(sqlIdentifier(table)) WHERE \(where_) ORDER BY \(order)"
        case .joinTable(let index, let reversed, _):
            let join = layout.joinTables[index]
            if reversed {
                sql = """
                    SELECT j.Z_SRC, t.Z_ENT FROM \(sqlIdentifier(join.name)) j JOIN \(sqlIdentifier(join.sourceTable)) t \
                    ON t.Z_PK = j.Z_SRC WHERE j.Z_DST = ? ORDER BY j.Z_SRC
                    """
            } else {
                sql = "SELECT Z_DST, Z_DST_ENT FROM \(sqlIdentifier(join.name)) WHERE Z_SRC = ? ORDER BY Z_ORD, Z_DST"
            }
        }
        return try read { db in
            let statement = SQLiteRawStatement(try db.cachedStatement(sql: sql))
            defer { statement.reset() }
            statement.bind(id.primaryKey, at: 1)
            var ids: [ObjectID] = []
            while try statement.step() {
                ids.append(ObjectID(entityIndex: Int(statement.int64(at: 1)), primaryKey: statement.int64(at: 0)))
            }
            return ids
        }
    }

    /// The IDs of the objects `request` selects, filtered and ordered in SQL (ties, and no sort
    /// keys, by primary key).
    /// - Throws: ``QueryError`` for an invalid predicate or sort key (nothing runs).
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] {
        var compiler = queryCompiler()
        // A table of one entity needs no Z_ENT column: the index on the sort key then covers
        // the whole query (keys come straight from the index, no row lookups).
        let table = layout.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? table.entityIndices[0] : nil
        let (sql, arguments) = try compiler.select(request, columns: single == nil ? ["t0.Z_PK", "t0.Z_ENT"] : ["t0.Z_PK"]).sql
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments)
            let raw = SQLiteRawStatement(statement)
            defer { raw.reset() }
            var ids: [ObjectID] = []
            if let single {
                while try raw.step() { ids.append(ObjectID(entityIndex: single, primaryKey: raw.int64(at: 0))) }
            } else {
                while try raw.step() { ids.append(ObjectID(entityIndex: Int(raw.int64(at: 1)), primaryKey: raw.int64(at: 0))) }
            }
            return ids
        }
    }

    /// How many objects `request` selects, counted in SQL.
    public func count(for request: StoreQuery) throws -> Int {
        var compiler = queryCompiler()
        let (sql, arguments) = try compiler.select(request, columns: ["1"]).countSQL
        return try read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? 0 }
    }

    /// Runs `body` in a read transaction, translating errors to ``StoreError``; under a
    /// current ``QueryCancellation`` the read can be cancelled (and then throws
    /// ``QueryCancellationError/cancelled``).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        // Read on the calling thread: the pool may run `body` on one of its own.
        let cancellation = QueryCancellation.current
        do {
            if let pinnedSnapshot {
                return try pinnedSnapshot.read { db in try Self.withCancellation(cancellation, on: db) { try body(db) } }
            }
            return try pool.read { db in try Self.withCancellation(cancellation, on: db) { try body(db) } }
        } catch {
            if let cancellation, cancellation.isCancelled { throw QueryCancellationError.cancelled }
            if let error = error as? DatabaseError, let regexError = QueryError(sqliteMessage: error.message) { throw regexError }
            throw Self.storeError(error, path: path)
        }
    }
}
