import CLibPQ
import Foundation

/// The rows of one statement's result (libpq's `PGresult`, binary format), in order, freed with
/// the last reference to it.
///
/// `@unchecked Sendable`: a result is never changed after libpq made it; reading it from
/// several threads is safe (libpq's own rule for `PGresult`).
final class PGResult: RandomAccessCollection, @unchecked Sendable {
    let handle: OpaquePointer

    /// Takes ownership of `handle` (cleared in `deinit`).
    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    /// The first row's index: 0.
    var startIndex: Int { 0 }
    /// How many rows.
    var endIndex: Int { Int(PQntuples(handle)) }
    /// How many columns each row has.
    var columnCount: Int { Int(PQnfields(handle)) }

    /// Row `index` (0-based).
    subscript(index: Int) -> PGRow {
        precondition(index >= 0 && index < endIndex, "row \(index) of a result of \(endIndex)")
        return PGRow(result: self, row: index)
    }

    /// How many rows the statement changed (`INSERT`, `UPDATE`, `DELETE`, …), or 0.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }
}

/// One row of a ``PGResult``; its cells by column number.
struct PGRow: Sendable {
    let result: PGResult
    let row: Int32

    init(result: PGResult, row: Int) {
        self.result = result
        self.row = Int32(row)
    }

    /// How many cells.
    var count: Int { result.columnCount }

    /// The cell of column `column` (0-based).
    subscript(column: Int) -> PGCell {
        precondition(column >= 0 && column < result.columnCount, "column \(column) of a row of \(result.columnCount)")
        return PGCell(result: result, row: row, column: Int32(column))
    }

    /// The cells, in column order.
    var cells: [PGCell] { (0..<count).map { self[$0] } }

    /// The value of a one-column row as `T`.
    /// - Throws: ``ColumnDecodingError`` as ``PGCell/decode(_:)`` does.
    func decode<T: PGDecodable>(_: T.Type = T.self) throws -> T {
        precondition(count == 1, "decode(_:) reads a one-column row; this one has \(count)")
        return try self[0].decode(T.self)
    }
}

/// One value of a row: `NULL`, or bytes of a type in binary format.
struct PGCell: Sendable {
    let result: PGResult
    let row: Int32
    let column: Int32

    /// Whether the value is SQL `NULL`.
    var isNull: Bool { PQgetisnull(result.handle, row, column) != 0 }
    /// The column's type.
    var type: PGType { PGType(rawValue: PQftype(result.handle, column)) }
    /// The column's name, as the statement named it.
    var columnName: String { PQfname(result.handle, column).map { String(cString: $0) } ?? "column \(column + 1)" }

    /// The value's bytes (binary format; empty for `NULL`), valid while the result lives.
    var bytes: UnsafeRawBufferPointer {
        let length = Int(PQgetlength(result.handle, row, column))
        guard let start = PQgetvalue(result.handle, row, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: length)
    }

    /// The value as `T`.
    /// - Throws: ``ColumnDecodingError`` naming the column when its type cannot be read as `T`
    ///   (or it is `NULL` and `T` is not optional).
    func decode<T: PGDecodable>(_: T.Type = T.self) throws -> T {
        try T.decode(self)
    }

    /// The error for a value that cannot be read as `expected`.
    func mismatch(_ expected: String, _ reason: String? = nil) -> ColumnDecodingError {
        ColumnDecodingError(column: columnName, expected: expected,
                            reason: reason ?? (isNull ? "it is NULL" : "it is of type \(type)"))
    }

    /// The value's bytes read as a big-endian integer of `size` bytes, sign-extended.
    func signedInteger(size: Int) -> Int64 { bytes.bigEndianInteger(at: 0, size: size) }
}

extension UnsafeRawBufferPointer {
    /// The `size` bytes at `offset` (1 to 8) read as a big-endian integer (PostgreSQL's
    /// network byte order), sign-extended.
    func bigEndianInteger(at offset: Int, size: Int) -> Int64 {
        precondition(size >= 1 && size <= 8 && offset >= 0 && offset + size <= count, "\(size) bytes at \(offset) of \(count)")
        var v: UInt64 = 0
        for i in offset..<offset + size { v = v << 8 | UInt64(self[i]) }
        let shift = UInt64(64 - 8 * size)
        return Int64(bitPattern: v << shift) >> shift
    }
}

/// A Swift type a ``PGCell`` decodes to.
protocol PGDecodable {
    /// `cell`'s value as this type.
    /// - Throws: ``ColumnDecodingError`` when it is not one.
    static func decode(_ cell: PGCell) throws -> Self
}

extension Int64: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Int64 {
        guard !cell.isNull else { throw cell.mismatch("integer") }
        switch cell.type {
        case .int8 where cell.bytes.count == 8: return cell.signedInteger(size: 8)
        case .int4 where cell.bytes.count == 4: return cell.signedInteger(size: 4)
        case .int2 where cell.bytes.count == 2: return cell.signedInteger(size: 2)
        case .oid where cell.bytes.count == 4: return cell.signedInteger(size: 4) & 0xFFFF_FFFF
        default: throw cell.mismatch("integer")
        }
    }
}

extension Int32: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Int32 {
        let wide = try Int64.decode(cell)
        guard let value = Int32(exactly: wide) else { throw cell.mismatch("32-bit integer", "\(wide) is out of range") }
        return value
    }
}

extension Int: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Int { Int(try Int64.decode(cell)) }
}

extension Double: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Double {
        guard !cell.isNull else { throw cell.mismatch("floating-point") }
        switch cell.type {
        case .float8 where cell.bytes.count == 8: return Double(bitPattern: UInt64(bitPattern: cell.signedInteger(size: 8)))
        case .float4 where cell.bytes.count == 4:
            return Double(Float(bitPattern: UInt32(truncatingIfNeeded: cell.signedInteger(size: 4))))
        default: throw cell.mismatch("floating-point")
        }
    }
}

extension Bool: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Bool {
        guard !cell.isNull, cell.type == .bool, cell.bytes.count == 1 else { throw cell.mismatch("boolean") }
        return cell.bytes[0] != 0
    }
}

extension String: PGDecodable {
    static func decode(_ cell: PGCell) throws -> String {
        guard !cell.isNull else { throw cell.mismatch("string") }
        let bytes = cell.bytes
        if cell.type.isText { return String(decoding: bytes, as: UTF8.self) }
        if cell.type == .jsonb, bytes.first == 1 { return String(decoding: bytes.dropFirst(), as: UTF8.self) }
        if cell.type == .uuid, bytes.count == 16 {
            let b = Array(bytes)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
                .uuidString.lowercased()
        }
        throw cell.mismatch("string")
    }
}

extension Data: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Data {
        guard !cell.isNull, cell.type == .bytea else { throw cell.mismatch("binary") }
        return Data(cell.bytes)
    }
}

extension Optional: PGDecodable where Wrapped: PGDecodable {
    static func decode(_ cell: PGCell) throws -> Wrapped? {
        cell.isNull ? nil : try Wrapped.decode(cell)
    }
}

extension Array: PGDecodable where Element == Int64 {
    /// A one-dimensional `bigint[]` (or `integer[]`) without `NULL`s, from PostgreSQL's binary
    /// array format: dimensions, flags, element type, then each dimension's length and lower
    /// bound, then each element's length and bytes.
    static func decode(_ cell: PGCell) throws -> [Int64] {
        guard !cell.isNull, cell.type == .int8Array || cell.type == .int4Array else { throw cell.mismatch("integer array") }
        let b = cell.bytes
        func int32(at offset: Int) -> Int { Int(b.bigEndianInteger(at: offset, size: 4)) }
        guard b.count >= 12 else { throw cell.mismatch("integer array", "a truncated array") }
        let dimensions = int32(at: 0)
        if dimensions == 0 { return [] }
        guard dimensions == 1, b.count >= 20 else { throw cell.mismatch("integer array", "\(dimensions) dimensions") }
        let count = int32(at: 12)
        guard count >= 0, count <= (b.count - 20) / 4 else { throw cell.mismatch("integer array", "a length of \(count)") }
        var values: [Int64] = []
        values.reserveCapacity(count)
        var offset = 20
        for _ in 0..<count {
            guard offset + 4 <= b.count else { throw cell.mismatch("integer array", "a truncated array") }
            let length = int32(at: offset)
            offset += 4
            guard length == 8 || length == 4, offset + length <= b.count else {
                throw cell.mismatch("integer array", length < 0 ? "it holds NULL" : "an element of \(length) bytes")
            }
            values.append(b.bigEndianInteger(at: offset, size: length))
            offset += length
        }
        return values
    }
}
