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
        var compiler = SQLiteQueryCompiler(layout: layout, model: model)
        let outputs = try keyPaths.map { try compiler.outputColumn($0, entity: request.entity) }
        let table = layout.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? table.entityIndices[0] : nil
        let idColumns = single == nil ? ["t0.Z_PK", "t0.Z_ENT"] : ["t0.Z_PK"]
        let (sql, arguments) = try compiler.select(request, columns: idColumns + outputs.map(\.sql)).sql
        let first = Int32(idColumns.count)
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments)
            let raw = SQLiteRawStatement(statement)
            defer { raw.reset() }
            var result: [(id: ObjectID, keys: [Value])] = []
            while try raw.step() {
                let entity = single ?? Int(raw.int64(at: 1))
                var keys: [Value] = []
                keys.reserveCapacity(outputs.count)
                for (i, output) in outputs.enumerated() {
                    let column = first + Int32(i)
                    if let type = output.type {
                        keys.append(raw.value(at: column, type: type))
                    } else {
                        keys.append(raw.isNull(at: column) ? .null : .integer(raw.int64(at: column)))
                    }
                }
                result.append((ObjectID(entityIndex: entity, primaryKey: raw.int64(at: 0)), keys))
            }
            return result
        }
    }
}

extension SQLiteStore {
    /// ``keyedIDs(for:keyPaths:)`` straight into columns (primary keys, entity indexes, one
    /// typed key column per key path), with no allocation per row: how a fetched-results
    /// controller loads a million results. `request` must not be restricted to a list of IDs.
    func keyedColumns(for request: StoreQuery, keyPaths: [String]) throws -> (pks: [Int64], entities: [Int32], columns: [KeyColumn]) {
        precondition(request.restrictedTo == nil)
        var compiler = SQLiteQueryCompiler(layout: layout, model: model)
        let outputs = try keyPaths.map { try compiler.outputColumn($0, entity: request.entity) }
        let table = layout.table(ofEntity: request.entity.index)
        let single = table.entityIndices.count == 1 ? Int32(table.entityIndices[0]) : nil
        let idColumns = single == nil ? ["t0.Z_PK", "t0.Z_ENT"] : ["t0.Z_PK"]
        let (sql, arguments) = try compiler.select(request, columns: idColumns + outputs.map(\.sql)).sql
        let first = Int32(idColumns.count)
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments)
            let raw = SQLiteRawStatement(statement)
            defer { raw.reset() }
            var pks: [Int64] = [], entities: [Int32] = []
            // Integer and double keys are appended without going through `Value`.
            enum Fast { case integer, double, none }
            let fast: [Fast] = outputs.map { output in
                switch output.type {
                case .integer16?, .integer32?, .integer64?, nil: return .integer
                case .double?, .float?: return .double
                default: return .none
                }
            }
            var columns = fast.map { $0 == .double ? KeyColumn(kind: .double) : KeyColumn(kind: .integer) }
            while try raw.step() {
                pks.append(raw.int64(at: 0))
                entities.append(single ?? Int32(truncatingIfNeeded: raw.int64(at: 1)))
                for (i, output) in outputs.enumerated() {
                    let column = first + Int32(i)
                    if raw.isNull(at: column) {
                        columns[i].appendNull()
                    } else if fast[i] == .integer {
                        columns[i].appendInteger(raw.int64(at: column))
                    } else if fast[i] == .double {
                        columns[i].appendDouble(sqlite3_column_double(raw.handle, column))
                    } else if let type = output.type {
                        columns[i].append(raw.value(at: column, type: type))
                    } else {
                        columns[i].append(raw.isNull(at: column) ? .null : .integer(raw.int64(at: column)))
                    }
                }
            }
            return (pks, entities, columns)
        }
    }
}
