import Foundation

/// How ``ResultsCache`` writes and reads the index's columns.
///
/// IDs: `UInt8` mode, then for mode 0 one `Int32` entity index (every row of one entity), for
/// mode 1 an `Int32` per row; then an `Int64` primary key per row.
///
/// A key column: `UInt8` kind `0` (tagged values), then per row a `UInt8` tag and its payload:
/// 0 nil; 1 integer `Int64`; 2 double (bits); 3 decimal (string); 4 string; 5 bool `UInt8`;
/// 6 date (seconds since 2001, bits); 7 binary (`UInt32` count + bytes); 8 UUID (16 bytes);
/// 9 URI (string); 10 JSON (string).
enum ResultsColumnCodec {
    struct Malformed: Error {}

    static func writeIDs(_ results: SortedResults, into w: inout CacheWriter) {
        let ids = results.ids
        let entity = ids.first?.entityIndex ?? 0
        if ids.allSatisfy({ $0.entityIndex == entity }) {
            w.u8(0)
            w.i32(entity)
        } else {
            w.u8(1)
            w.array(ids.map(\.entityIndex))
        }
        w.array(ids.map(\.primaryKey))
    }

    static func readIDs(count n: Int, from r: inout CacheReader) throws -> [ObjectID] {
        let mode = try r.u8()
        var entities: [Int32]?
        var entity: Int32 = 0
        switch mode {
        case 0: entity = try r.i32()
        case 1: entities = try r.array(n, of: Int32.self)
        default: throw Malformed()
        }
        let keys = try r.array(n, of: Int64.self)
        if let entities {
            return (0..<n).map { ObjectID(entityIndex: Int(entities[$0]), primaryKey: keys[$0]) }
        }
        return keys.map { ObjectID(entityIndex: Int(entity), primaryKey: $0) }
    }

    static func writeColumns(_ results: SortedResults, into w: inout CacheWriter) {
        w.u32(UInt32(results.columns.count))
        for column in results.columns {
            w.u8(0)
            for v in column { write(v, into: &w) }
        }
    }

    static func readColumns(count n: Int, sortKeys: [SortKey], from r: inout CacheReader) throws -> [[Value]] {
        guard Int(try r.u32()) == sortKeys.count else { throw Malformed() }
        var columns: [[Value]] = []
        for _ in sortKeys {
            guard try r.u8() == 0 else { throw Malformed() }
            var column: [Value] = []
            column.reserveCapacity(n)
            for _ in 0..<n { column.append(try read(from: &r)) }
            columns.append(column)
        }
        return columns
    }

    static func write(_ v: Value, into w: inout CacheWriter) {
        switch v {
        case .null: w.u8(0)
        case .integer(let i): w.u8(1); w.i64(i)
        case .double(let d): w.u8(2); w.f64(d)
        case .decimal(let d): w.u8(3); w.string(d.description)
        case .string(let s): w.u8(4); w.string(s)
        case .bool(let b): w.u8(5); w.u8(b ? 1 : 0)
        case .date(let d): w.u8(6); w.f64(d.timeIntervalSinceReferenceDate)
        case .data(let d): w.u8(7); w.u32(UInt32(d.count)); w.bytes(Array(d))
        case .uuid(let u): w.u8(8); withUnsafeBytes(of: u.uuid) { w.bytes(Array($0)) }
        case .uri(let u): w.u8(9); w.string(u.absoluteString)
        case .json(let j): w.u8(10); w.string(j.jsonText)
        }
    }

    static func read(from r: inout CacheReader) throws -> Value {
        switch try r.u8() {
        case 0: return .null
        case 1: return .integer(try r.i64())
        case 2: return .double(try r.f64())
        case 3:
            guard let d = Decimal(string: try r.string(), locale: Locale(identifier: "en_US_POSIX")) else { throw Malformed() }
            return .decimal(d)
        case 4: return .string(try r.string())
        case 5: return .bool(try r.u8() != 0)
        case 6: return .date(Date(timeIntervalSinceReferenceDate: try r.f64()))
        case 7:
            let n = Int(try r.u32())
            return .data(Data(try r.take(n)))
        case 8:
            let b = try r.bytes(16)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case 9:
            guard let u = URL(string: try r.string()) else { throw Malformed() }
            return .uri(u)
        case 10: return .json(try JSONValue(jsonText: try r.string()))
        default: throw Malformed()
        }
    }
}
