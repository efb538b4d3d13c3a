
/// Reads rows of root tables into ``Snapshot``s on a given connection: a pooled one for
/// ``PostgreSQLStore/snapshots(for:)``, the saving one inside a save for a conflicting row.
struct PostgreSQLRowReader: Sendable {
    let layout: PostgreSQLLayout
    let model: ManagedObjectModel
    /// What every statement starts with (``PostgreSQLStore/prelude``).
    var prelude = ""

    /// Keys per `= ANY($1)` array.
    static let chunkSize = 10_000

    /// `SELECT "Z_PK", "Z_ENT", "Z_OPT", <data columns> FROM <table>` (shadows left out).
    func selectRow(table: Int) -> String {
        let t = layout.base.tables[table]
        return prelude + "SELECT \"Z_PK\", \"Z_ENT\", \"Z_OPT\"\(t.columns.map { ", " + PostgreSQLLayout.q($0.name) }.joined()) FROM \(PostgreSQLLayout.q(t.name))"
    }

    /// The committed state of each of `ids` that exists with the ID's entity.
    func snapshots(for ids: [ObjectID], connection: PostgreSQLConnection) throws -> [ObjectID: Snapshot] {
        let wanted = Set(ids)
        var keysByTable: [Int: [Int64]] = [:]
        for id in ids where !id.isTemporary && Int(id.entityIndex) < layout.base.entities.count {
            keysByTable[layout.base.entities[Int(id.entityIndex)].tableIndex, default: []].append(id.primaryKey)
        }
        var found: [(ObjectID, Snapshot)] = []
        for (table, keys) in keysByTable.sorted(by: { $0.key < $1.key }) {
            var start = 0
            while start < keys.count {
                let chunk = Array(keys[start..<min(start + Self.chunkSize, keys.count)])
                start += Self.chunkSize
                var b = PGBindings()
                b.append(chunk)
                let decoder = self
                try connection.forEachRow(selectRow(table: table) + " WHERE \"Z_PK\" = ANY($1)", b) { row in
                    let decoded = try decoder.decodeRow(row)
                    if wanted.contains(decoded.0) { found.append(decoded) }
                }
            }
        }
        return Dictionary(found, uniquingKeysWith: { a, _ in a })
    }

    /// The state of one row, or `nil` when it does not exist.
    func snapshot(for id: ObjectID, connection: PostgreSQLConnection) throws -> Snapshot? {
        try snapshots(for: [id], connection: connection)[id]
    }

    /// Decodes a row of ``selectRow(table:)``.
    /// - Throws: ``ColumnDecodingError`` naming a column whose value does not have its type.
    func decodeRow(_ row: PGRow) throws -> (ObjectID, Snapshot) {
        let entityIndex = Int(try PostgreSQLValues.integer(row[1]) ?? 0)
        let id = ObjectID(entityIndex: entityIndex, primaryKey: try PostgreSQLValues.integer(row[0]) ?? 0)
        let entity = model.entities[entityIndex]
        let entityLayout = layout.base.entities[entityIndex]
        var values: [Value] = []
        values.reserveCapacity(entity.attributes.count)
        for (i, attribute) in entity.attributes.enumerated() {
            if let column = entityLayout.attributeColumns[i] {
                values.append(try PostgreSQLValues.decode(row[3 + column], type: attribute.type))
            } else {
                values.append(.null)
            }
        }
        let toOne: [ObjectID?] = try entityLayout.toOne.map { columns in
            guard let columns, let key = try PostgreSQLValues.integer(row[3 + columns.key]) else { return nil }
            let destination = try columns.entity.flatMap { try PostgreSQLValues.integer(row[3 + $0]) }.map(Int.init) ?? columns.destinationIndex
            return ObjectID(entityIndex: destination, primaryKey: key)
        }
        return (id, Snapshot(values: values, toOne: toOne, version: try PostgreSQLValues.integer(row[2]) ?? 0))
    }
}
