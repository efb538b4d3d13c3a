import Foundation
import GRDB

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
        let (sql, arguments) = try compiler.select(request, columns: ["t0.Z_PK", "t0.Z_ENT"] + outputs.map(\.sql)).sql
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments)
            let cursor = try Row.fetchCursor(statement)
            var result: [(id: ObjectID, keys: [Value])] = []
            while let row = try cursor.next() {
                let id = ObjectID(entityIndex: Int(row[1] as Int64), primaryKey: row[0])
                let keys = outputs.enumerated().map { i, output in Self.value(row[i + 2] as DatabaseValue, as: output.type) }
                result.append((id, keys))
            }
            return result
        }
    }

    /// Decodes a result column the way snapshots decode stored values.
    static func value(_ v: DatabaseValue, as type: AttributeType?) -> Value {
        switch v.storage {
        case .null: return .null
        case .int64(let i):
            switch type {
            case .boolean?: return .bool(i != 0)
            case .double?, .float?: return .double(Double(i))
            case .date?: return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .decimal?: return .decimal(Decimal(i))
            default: return .integer(i)
            }
        case .double(let d):
            switch type {
            case .date?: return .date(Date(timeIntervalSinceReferenceDate: d))
            case .integer16?, .integer32?, .integer64?: return Int64(exactly: d).map(Value.integer) ?? .double(d)
            default: return .double(d)
            }
        case .string(let s):
            switch type {
            case .decimal?: return Decimal(string: s).map(Value.decimal) ?? .string(s)
            case .uuid?: return UUID(uuidString: s).map(Value.uuid) ?? .string(s)
            case .uri?: return URL(string: s).map(Value.uri) ?? .string(s)
            case .transformable?: return (try? JSONValue(jsonText: s)).map(Value.json) ?? .string(s)
            default: return .string(s)
            }
        case .blob(let d): return .data(d)
        }
    }
}
