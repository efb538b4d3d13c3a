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

    /// Reads the IDs and key columns of `n` results, `r` being at the IDs (and left after the
    /// last column), and rebuilds the index a chunk at a time: a pass over the regions finds
    /// where each starts, then one reader per region hands the rows to a
    /// ``SortedResults/Builder`` side by side, so no array of all IDs or of a whole column is
    /// ever built.
    static func read(count n: Int, sortKeys: [SortKey], from r: CacheReader, file: CacheFile) throws -> SortedResults {
        let region = { (length: Int) throws -> CacheReader in
            let reader = CacheReader(file: file, offset: r.offset, end: r.end)
            try r.skip(length)
            return reader
        }
        var sharedEntity: Int32 = 0
        var entities: CacheReader?
        switch try r.u8() {
        case 0: sharedEntity = try r.i32()
        case 1: entities = try region(4 * n)
        default: throw Malformed()
        }
        let pks = try region(8 * n)
        guard Int(try r.u32()) == sortKeys.count else { throw Malformed() }
        var columns: [(kind: KeyColumn.Kind, nulls: CacheReader?, rows: CacheReader)] = []
        for _ in sortKeys {
            guard let kind = KeyColumn.Kind(rawValue: try r.u8()) else { throw Malformed() }
            var nulls: CacheReader?
            switch try r.u8() {
            case 0: break
            case 1: nulls = try region(n)
            default: throw Malformed()
            }
            let rows = CacheReader(file: file, offset: r.offset, end: r.end)
            try skipRows(n, of: kind, in: r)
            columns.append((kind, nulls, rows))
        }
        var builder = SortedResults.Builder(sortKeys: sortKeys)
        var row = CachedRow(kinds: columns.map(\.kind))
        for _ in 0..<n {
            row.primaryKey = try pks.i64()
            row.entityIndex = try entities?.i32() ?? sharedEntity
            for (k, column) in columns.enumerated() {
                let isNull = try column.nulls?.u8() ?? 0 != 0
                try row.read(k, from: column.rows, isNull: isNull)
            }
            builder.append(row)
        }
        return builder.finish()
    }

    /// Passes over `n` rows of a column of `kind`.
    private static func skipRows(_ n: Int, of kind: KeyColumn.Kind, in r: CacheReader) throws {
        switch kind {
        case .integer, .bool, .double, .date: try r.skip(8 * n)
        case .string: for _ in 0..<n { try r.skip(Int(try r.u32())) }
        case .value: for _ in 0..<n { _ = try read(from: r) }
        }
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

    static func read(from r: CacheReader) throws -> Value {
        switch try r.u8() {
        case 0: return .null
        case 1: return .integer(try r.i64())
        case 2: return .double(try r.f64())
        case 3:
            guard let d = ScaledDecimal(string: try r.string()) else { throw Malformed() }
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

/// One row of a cache file's columns as a ``KeyedRow`` for ``SortedResults/Builder``: the ID
/// and each key as read, in buffers reused from row to row.
private struct CachedRow: KeyedRow {
    var primaryKey: Int64 = 0
    var entityIndex: Int32 = 0
    /// Each column's kind in the file.
    let columnKinds: [KeyColumn.Kind]
    private var rowKinds: [KeyedRowKind]
    /// By key: an integer or boolean, or a double's or date's bit pattern.
    private var words: [Int64]
    /// By key: a string's UTF-8 bytes.
    private var texts: [[UInt8]]
    /// By key: a value of another kind.
    private var values: [Value]

    init(kinds: [KeyColumn.Kind]) {
        columnKinds = kinds
        rowKinds = kinds.map { _ in .null }
        words = kinds.map { _ in 0 }
        texts = kinds.map { _ in [] }
        values = kinds.map { _ in .null }
    }

    /// Reads key `k`'s next row from `rows` (its placeholder, when `isNull`).
    mutating func read(_ k: Int, from rows: CacheReader, isNull: Bool) throws {
        let kind = columnKinds[k]
        switch kind {
        case .integer, .bool: words[k] = try rows.i64()
        case .double, .date: words[k] = Int64(bitPattern: try rows.u64())
        case .string:
            let bytes = try rows.take(Int(try rows.u32()))
            texts[k].removeAll(keepingCapacity: true)
            texts[k].append(contentsOf: bytes)
        case .value: values[k] = try ResultsColumnCodec.read(from: rows)
        }
        if isNull {
            rowKinds[k] = .null
        } else {
            switch kind {
            case .integer: rowKinds[k] = .integer
            case .double: rowKinds[k] = .double
            case .string: rowKinds[k] = .string
            case .bool, .date, .value: rowKinds[k] = .other
            }
        }
    }

    func kind(ofKey k: Int) -> KeyedRowKind { rowKinds[k] }
    func int64(ofKey k: Int) -> Int64 { words[k] }
    func double(ofKey k: Int) -> Double { Double(bitPattern: UInt64(bitPattern: words[k])) }
    func withUTF8<R>(ofKey k: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try texts[k].withUnsafeBufferPointer(body)
    }

    func value(ofKey k: Int) -> Value {
        if rowKinds[k] == .null { return .null }
        switch columnKinds[k] {
        case .integer: return .integer(words[k])
        case .bool: return .bool(words[k] != 0)
        case .double: return .double(double(ofKey: k))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(ofKey: k)))
        case .string: return .string(String(decoding: texts[k], as: UTF8.self))
        case .value: return values[k]
        }
    }
}
