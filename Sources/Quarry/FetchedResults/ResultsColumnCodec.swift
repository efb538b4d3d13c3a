import Foundation

/// How ``ResultsCache`` writes and reads the index's columns.
///
/// IDs: `UInt8` mode, then for mode 0 one `Int32` entity index (every row of one entity), for
/// mode 1 an `Int32` per row; then an `Int64` primary key per row.
///
/// A key column: `UInt8` kind (0 integer, 1 boolean, 2 double, 3 date, 4 string, 5 other),
/// `UInt8` 1 when some rows are nil followed by one `UInt8` 0/1 per row, then the rows:
/// `Int64` for integers and booleans (0/1), `Double` bits for doubles and dates (seconds since
/// 2001), strings for strings, and for other values a `UInt8` tag and its payload:
/// 0 nil; 1 integer `Int64`; 2 double (bits); 3 decimal (string); 4 string; 5 bool `UInt8`;
/// 6 date (bits); 7 binary (`UInt32` count + bytes); 8 UUID (16 bytes); 9 URI (string);
/// 10 JSON (string).
enum ResultsColumnCodec {
    struct Malformed: Error {}

    /// Writes `results`' IDs, then its key columns one at a time, chunk by chunk: nothing the
    /// size of the index is held besides it (a chunk's worth of values at a time).
    static func write(_ results: SortedResults, into w: inout CacheWriter) {
        writeIDs(results, into: &w)
        w.u32(UInt32(results.sortKeys.count))
        for k in results.sortKeys.indices { writeColumn(k, of: results, into: &w) }
    }

    /// The IDs: one entity index for all when they share one, then the primary keys.
    private static func writeIDs(_ results: SortedResults, into w: inout CacheWriter) {
        var pks: [Int64] = [], entities: [Int32] = []
        let shared = results.chunks.first.flatMap { $0.count > 0 ? $0.id(0).entityIndex : nil } ?? 0
        let oneEntity = results.chunks.allSatisfy { chunk in (0..<chunk.count).allSatisfy { chunk.id($0).entityIndex == shared } }
        if oneEntity {
            w.u8(0)
            w.i32(shared)
        } else {
            w.u8(1)
            for chunk in results.chunks {
                pks.removeAll(keepingCapacity: true)
                entities.removeAll(keepingCapacity: true)
                chunk.appendIDs(to: &pks, &entities)
                w.array(entities)
            }
        }
        for chunk in results.chunks {
            pks.removeAll(keepingCapacity: true)
            entities.removeAll(keepingCapacity: true)
            chunk.appendIDs(to: &pks, &entities)
            w.array(pks)
        }
    }

    /// Key column `k`: its kind (the chunks' kind when every non-nil value has it, else plain
    /// values), the nil flags, then the rows, read a chunk at a time.
    private static func writeColumn(_ k: Int, of results: SortedResults, into w: inout CacheWriter) {
        var kind: KeyColumn.Kind?
        var mixed = false, hasNulls = false
        for chunk in results.chunks {
            let part = chunk.column(k)
            if (0..<part.count).contains(where: { part.isNull($0) }) { hasNulls = true }
            guard (0..<part.count).contains(where: { !part.isNull($0) }) else { continue }
            if kind == nil { kind = part.kind } else if kind != part.kind { mixed = true }
        }
        let written: KeyColumn.Kind = mixed ? .value : (kind ?? .integer)
        if written == .value { hasNulls = false }
        w.u8(written.rawValue)
        w.u8(hasNulls ? 1 : 0)
        if hasNulls {
            for chunk in results.chunks {
                let part = chunk.column(k)
                for i in 0..<part.count { w.u8(part.isNull(i) ? 1 : 0) }
            }
        }
        for chunk in results.chunks {
            let part = chunk.column(k)
            for i in 0..<part.count { writeRow(i, of: part, as: written, into: &w) }
        }
    }

    /// Row `i` of `part` in a column written as `kind` (a nil row as a placeholder, flagged
    /// in the column's nil flags, unless `kind` is plain values).
    private static func writeRow(_ i: Int, of part: KeyColumn, as kind: KeyColumn.Kind, into w: inout CacheWriter) {
        if kind == .value { return write(part.value(at: i), into: &w) }
        let null = part.isNull(i)
        switch kind {
        case .integer, .bool: w.i64(null ? 0 : part.word(at: i))
        case .double, .date: w.u64(null ? 0 : UInt64(bitPattern: part.word(at: i)))
        case .string:
            if null {
                w.u32(0)
            } else {
                part.strings.withUTF8(at: i) { utf8 in
                    w.u32(UInt32(utf8.count))
                    w.bytes(utf8)
                }
            }
        case .value: break
        }
    }

    static func read(count n: Int, sortKeys: [SortKey], from r: inout CacheReader) throws -> SortedResults {
        let mode = try r.u8()
        let entities: [Int32]
        switch mode {
        case 0: entities = [Int32](repeating: try r.i32(), count: n)
        case 1: entities = try r.array(n, of: Int32.self)
        default: throw Malformed()
        }
        let pks = try r.array(n, of: Int64.self)
        guard Int(try r.u32()) == sortKeys.count else { throw Malformed() }
        var columns: [KeyColumn] = []
        for _ in sortKeys {
            guard let kind = KeyColumn.Kind(rawValue: try r.u8()) else { throw Malformed() }
            var nulls: [Bool] = []
            switch try r.u8() {
            case 0: break
            case 1: nulls = try r.bytes(n).map { $0 != 0 }
            default: throw Malformed()
            }
            let column: KeyColumn?
            switch kind {
            case .integer, .bool:
                column = KeyColumn(kind: kind, ints: try r.array(n, of: Int64.self), nulls: nulls, count: n)
            case .double, .date:
                column = KeyColumn(kind: kind, doubles: try r.array(n, of: UInt64.self).map(Double.init(bitPattern:)), nulls: nulls, count: n)
            case .string:
                var strings = UTF8Column()
                strings.reserveCapacity(n)
                for _ in 0..<n { strings.append(utf8: try r.take(Int(try r.u32())).bindMemory(to: UInt8.self)) }
                column = KeyColumn(kind: kind, strings: strings, nulls: nulls, count: n)
            case .value:
                var values: [Value] = []
                values.reserveCapacity(n)
                for _ in 0..<n { values.append(try read(from: &r)) }
                column = KeyColumn(kind: kind, values: values, nulls: nulls, count: n)
            }
            guard let column else { throw Malformed() }
            columns.append(column)
        }
        return SortedResults(sortKeys: sortKeys, pks: pks, entities: entities, columns: columns)
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
