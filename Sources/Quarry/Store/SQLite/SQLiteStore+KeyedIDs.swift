import Foundation
import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// The IDs `request` selects with the values of `keyPaths`, in one query (chunks of 10,000
    /// when the request is restricted to a list of objects; chunks are concatenated in order of
    /// the list, each chunk in query order).
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        if let ids = request.restrictedTo, ids.count > 10_000 {
            var all: [(id: ObjectID, keys: [Value])] = []
            var start = 0
            while start < ids.count {
                var chunk = request
                chunk.restrictedTo = Array(ids[start..<min(ids.count, start + 10_000)])
                all += try keyedIDs(for: chunk, keyPaths: keyPaths)
                start += 10_000
            }
            return all
        }
        var compiler = queryCompiler()
        let outputs = try keyPaths.map { try compiler.outputColumn($0, entity: request.entity) }
        let table = layout.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? table.entityIndices[0] : nil
        let idColumns = single == nil ? ["t0.Z_PK", "t0.Z_ENT"] : ["t0.Z_PK"]
        // A list of IDs goes in as one JSON array (``SQLiteDialect/primaryKey(under:in:)``), so
        // the statement stays the same for every list: it is prepared once and cached.
        let (sql, arguments) = try compiler.select(request, columns: idColumns + outputs.map(\.sql)).sql
        if let ids = request.restrictedTo, ids.isEmpty { return [] }
        let first = Int32(idColumns.count)
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments)
            let raw = SQLiteRawStatement(statement)
            defer { raw.reset() }
            var result: [(id: ObjectID, keys: [Value])] = []
            while try raw.step() {
                let entity = single ?? Int(raw.int64(at: 1))
                result.append((ObjectID(entityIndex: entity, primaryKey: raw.int64(at: 0)), try Self.keys(of: raw, outputs: outputs, first: first)))
            }
            return result
        }
    }

    /// The values of `outputs` in the current row of `raw`, the first in column `first`.
    /// - Throws: ``ColumnDecodingError`` naming a column whose value cannot be read as its
    ///   attribute's (see ``SQLiteRawStatement/value(at:of:)``).
    static func keys(of raw: SQLiteRawStatement, outputs: [SQLOutputColumn], first: Int32) throws(ColumnDecodingError) -> [Value] {
        var keys: [Value] = []
        keys.reserveCapacity(outputs.count)
        for (i, output) in outputs.enumerated() {
            let column = first + Int32(i)
            if let attribute = output.attribute {
                keys.append(try raw.value(at: column, of: attribute))
            } else {
                keys.append(raw.isNull(at: column) ? .null : .integer(raw.int64(at: column)))
            }
        }
        return keys
    }
}
