import GRDB

/// Reads rows of root tables into ``Snapshot``s, on whatever connection it is given: a reader
/// for ``SQLiteStore/snapshots(for:)``, the writer inside a save to fetch the persisted state of
/// a conflicting row.
struct SQLiteRowReader {
    let layout: StoreLayout
    let statements: SQLiteRowStatements
    let model: ManagedObjectModel

    /// How many primary keys go into one `IN (…)` list.
    static let chunkSize = 500

    /// The committed state of each of `ids` that exists with the ID's entity.
    func snapshots(for ids: [ObjectID], db: Database) throws -> [ObjectID: Snapshot] {
        var result: [ObjectID: Snapshot] = [:]
        result.reserveCapacity(ids.count)
        let wanted = Set(ids)
        var keysByTable: [Int: [Int64]] = [:]
        for id in ids where !id.isTemporary && Int(id.entityIndex) < layout.entities.count {
            keysByTable[layout.entities[Int(id.entityIndex)].tableIndex, default: []].append(id.primaryKey)
        }
        for (table, keys) in keysByTable.sorted(by: { $0.key < $1.key }) {
            var start = 0
            while start < keys.count {
                let chunk = keys[start..<min(start + Self.chunkSize, keys.count)]
                start += Self.chunkSize
                // The keys go in as one JSON array, so the statement is the same for every chunk:
                // compiled once per connection, not once per batch a table faults in.
                let statement = SQLiteRawStatement(try db.cachedStatement(
                    sql: statements.selectRow[table] + " WHERE Z_PK IN (SELECT value FROM json_each(?))"))
                defer { statement.reset() }
                statement.bind(SQLiteDialect.jsonArray(chunk), at: 1)
                while try statement.step() {
                    let (id, snapshot) = try decodeRow(statement)
                    // Leave out rows whose entity differs from the one asked for.
                    if wanted.contains(id) { result[id] = snapshot }
                }
            }
        }
        return result
    }

    /// The state of one row, or `nil` when it does not exist.
    func snapshot(for id: ObjectID, db: Database) throws -> Snapshot? {
        let table = layout.entities[Int(id.entityIndex)].tableIndex
        let statement = SQLiteRawStatement(try db.cachedStatement(sql: statements.selectRow[table] + " WHERE Z_PK = ?"))
        defer { statement.reset() }
        statement.bind(id.primaryKey, at: 1)
        guard try statement.step() else { return nil }
        let (found, snapshot) = try decodeRow(statement)
        return found == id ? snapshot : nil
    }

    /// Decodes the current row of a ``SQLiteRowStatements/selectRow`` statement.
    /// - Throws: ``ColumnDecodingError`` naming a column whose stored value cannot be read as
    ///   its attribute's (a transformable value its transformer cannot read, text that is not JSON).
    func decodeRow(_ statement: SQLiteRawStatement) throws(ColumnDecodingError) -> (ObjectID, Snapshot) {
        let entityIndex = Int(statement.int64(at: 1))
        let id = ObjectID(entityIndex: entityIndex, primaryKey: statement.int64(at: 0))
        let entity = model.entities[entityIndex]
        let entityLayout = layout.entities[entityIndex]
        var values: [Value] = []
        values.reserveCapacity(entity.attributes.count)
        for (i, attribute) in entity.attributes.enumerated() {
            if let column = entityLayout.attributeColumns[i] {
                values.append(try statement.value(at: Int32(3 + column), of: attribute))
            } else {
                values.append(.null)
            }
        }
        let toOne: [ObjectID?] = entityLayout.toOne.map { columns in
            guard let columns, !statement.isNull(at: Int32(3 + columns.key)) else { return nil }
            let destination = columns.entity.map { Int(statement.int64(at: Int32(3 + $0))) } ?? columns.destinationIndex
            return ObjectID(entityIndex: destination, primaryKey: statement.int64(at: Int32(3 + columns.key)))
        }
        return (id, Snapshot(values: values, toOne: toOne, version: statement.int64(at: 2)))
    }
}
