import Foundation

/// Where values go one after another, each as its PostgreSQL type's binary form: a statement's
/// parameters (``PGBindings``) or the rows of a binary `COPY` (``PGCopyWriter``). Code that
/// lays out a row writes it once, for either.
protocol PGFieldWriter {
    /// An SQL `NULL`.
    mutating func appendNull()
    /// A `bigint`.
    mutating func append(_ value: Int64)
    /// A `double precision`.
    mutating func append(_ value: Double)
    /// A `text`.
    mutating func append(_ value: String)
    /// A `bytea`.
    mutating func append(_ value: Data)
    /// A `bytea`.
    mutating func append(bytes value: [UInt8])
}

extension PGFieldWriter {
    /// A `text`, or `NULL` for `nil`.
    mutating func append(_ value: String?) {
        if let value { append(value) } else { appendNull() }
    }

    /// A `bigint`, or `NULL` for `nil`.
    mutating func append(_ value: Int64?) {
        if let value { append(value) } else { appendNull() }
    }

    /// A `double precision`, or `NULL` for `nil`.
    mutating func append(_ value: Double?) {
        if let value { append(value) } else { appendNull() }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, most significant first (PostgreSQL's network byte order).
    @inline(__always)
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}
