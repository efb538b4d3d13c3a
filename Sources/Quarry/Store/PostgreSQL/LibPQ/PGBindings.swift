import Foundation

/// The parameters of one statement (`$1`, `$2`, …), each with its PostgreSQL type, in binary
/// format: what libpq's `PQexecParams` takes, packed in one buffer.
///
/// Types follow the Swift value: `Int64` is `bigint`, `Int32` `integer`, `Double` `double
/// precision`, `String` `text`, `Data` `bytea`, and arrays of `Int64`, `Double` and `String`
/// their one-dimensional array types; `appendNull()` is an untyped `NULL` (the server infers its
/// type from the statement).
struct PGBindings: PGFieldWriter, Sendable {
    /// Every parameter's bytes, back to back.
    private(set) var storage: [UInt8] = []
    /// Where each parameter starts in ``storage`` (`-1` for `NULL`).
    private(set) var offsets: [Int] = []
    /// Each parameter's length in bytes.
    private(set) var lengths: [Int32] = []
    /// Each parameter's type (`0`: let the server infer it).
    private(set) var types: [PGType] = []

    /// No parameters yet.
    init() {}

    /// No parameters yet, with room for `capacity` of them.
    init(capacity: Int) {
        offsets.reserveCapacity(capacity)
        lengths.reserveCapacity(capacity)
        types.reserveCapacity(capacity)
        storage.reserveCapacity(capacity * 8)
    }

    /// How many parameters there are.
    var count: Int { offsets.count }

    /// Appends an SQL `NULL`.
    mutating func appendNull() {
        offsets.append(-1)
        lengths.append(0)
        types.append(.unspecified)
    }

    /// Appends a `bigint`.
    mutating func append(_ value: Int64) {
        begin(.int8)
        putInteger(UInt64(bitPattern: value))
        end()
    }

    /// Appends an `integer`.
    mutating func append(_ value: Int32) {
        begin(.int4)
        putInteger(UInt32(bitPattern: value))
        end()
    }

    /// Appends a `double precision`.
    mutating func append(_ value: Double) {
        begin(.float8)
        putInteger(value.bitPattern)
        end()
    }

    /// Appends a `text`.
    mutating func append(_ value: String) {
        begin(.text)
        storage.append(contentsOf: value.utf8)
        end()
    }

    /// Appends a `bytea`.
    mutating func append(_ value: Data) {
        begin(.bytea)
        storage.append(contentsOf: value)
        end()
    }

    /// Appends a `bytea`.
    mutating func append(bytes value: [UInt8]) {
        begin(.bytea)
        storage.append(contentsOf: value)
        end()
    }

    /// Appends a `bigint[]`.
    mutating func append(_ values: [Int64]) {
        appendArray(.int8Array, element: .int8, count: values.count) { b, i in
            b.putInteger(UInt32(8))
            b.putInteger(UInt64(bitPattern: values[i]))
        }
    }

    /// Appends a `double precision[]`.
    mutating func append(_ values: [Double]) {
        appendArray(.float8Array, element: .float8, count: values.count) { b, i in
            b.putInteger(UInt32(8))
            b.putInteger(values[i].bitPattern)
        }
    }

    /// Appends a `text[]`.
    mutating func append(_ values: [String]) {
        appendArray(.textArray, element: .text, count: values.count) { b, i in
            let utf8 = values[i].utf8
            b.putInteger(UInt32(utf8.count))
            b.storage.append(contentsOf: utf8)
        }
    }

    /// A one-dimensional array in PostgreSQL's binary array format: dimensions, flags (no
    /// `NULL`s), element type, then (for a non-empty array) its length and lower bound 1, then
    /// each element's length and bytes.
    private mutating func appendArray(_ type: PGType, element: PGType, count: Int, _ put: (inout PGBindings, Int) -> Void) {
        begin(type)
        putInteger(UInt32(count == 0 ? 0 : 1))
        putInteger(UInt32(0))
        putInteger(element.rawValue)
        if count > 0 {
            putInteger(UInt32(count))
            putInteger(UInt32(1))
            for i in 0..<count { put(&self, i) }
        }
        end()
    }

    private mutating func begin(_ type: PGType) {
        offsets.append(storage.count)
        types.append(type)
    }

    private mutating func end() {
        let start = offsets[offsets.count - 1]
        lengths.append(Int32(storage.count - start))
    }

    /// Appends `value` in network byte order.
    private mutating func putInteger<T: FixedWidthInteger>(_ value: T) {
        storage.appendBigEndian(value)
    }

    /// Calls `body` with libpq's parallel arrays for these parameters: types, value pointers
    /// (`nil` for `NULL`), lengths and formats (all binary), valid only during the call.
    func withParameterArrays<T>(_ body: (_ types: [UInt32], _ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) throws -> T) rethrows -> T {
        // One byte more than needed, so an empty value still has an address.
        var bytes = storage
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { characters in
                let base = characters.baseAddress!
                let values: [UnsafePointer<CChar>?] = offsets.map { $0 < 0 ? nil : base + $0 }
                return try body(types.map(\.rawValue), values, lengths, [Int32](repeating: 1, count: offsets.count))
            }
        }
    }
}
