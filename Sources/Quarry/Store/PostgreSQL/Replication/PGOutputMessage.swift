/// One message of PostgreSQL's logical replication protocol as the `pgoutput` plug-in sends it
/// (protocol version 1, values in text form), decoded from a `CopyData` message of the
/// replication stream. Only what a change feed needs is kept; other messages are ``other``.
///
/// See PostgreSQL's "Logical Replication Message Formats": every integer is big-endian, every
/// string ends with a zero byte.
enum PGOutputMessage: Equatable {
    /// One relation's shape, sent before its first change in a session (and again when it
    /// changes).
    struct Relation: Equatable {
        var oid: UInt32
        var namespace: String
        var name: String
        /// Column names, in the order of every tuple of this relation.
        var columns: [String]
    }

    /// A transaction begins.
    case begin(xid: UInt32)
    /// The transaction ends; `end` is the position after its commit record (what to confirm).
    case commit(end: UInt64)
    case relation(Relation)
    /// A new row (its values, `nil` for `NULL`).
    case insert(relation: UInt32, new: [String?])
    /// A changed row: its old key (or whole old row) when the key changed or the relation's
    /// replica identity is `FULL`, and its new values (`nil` also for unchanged TOASTed values).
    case update(relation: UInt32, old: [String?]?, new: [String?])
    /// A deleted row's key (or whole row).
    case delete(relation: UInt32, old: [String?])
    case truncate(relations: [UInt32])
    /// Anything else (origin, type, logical decoding message).
    case other

    /// Why a message could not be decoded.
    struct DecodingError: Error, CustomStringConvertible {
        var description: String
    }

    /// Decodes one `pgoutput` message.
    /// - Throws: ``DecodingError`` for a truncated or malformed message.
    init(decoding bytes: ArraySlice<UInt8>) throws {
        var reader = Reader(bytes: bytes)
        switch try reader.byte() {
        case UInt8(ascii: "B"):
            _ = try reader.integer(8)   // final LSN
            _ = try reader.integer(8)   // commit time
            self = .begin(xid: UInt32(truncatingIfNeeded: try reader.integer(4)))
        case UInt8(ascii: "C"):
            _ = try reader.byte()       // flags
            _ = try reader.integer(8)   // commit LSN
            self = .commit(end: try reader.integer(8))
        case UInt8(ascii: "R"):
            let oid = UInt32(truncatingIfNeeded: try reader.integer(4))
            let namespace = try reader.string(), name = try reader.string()
            _ = try reader.byte()       // replica identity
            let count = Int(try reader.integer(2))
            var columns: [String] = []
            for _ in 0..<count {
                _ = try reader.byte()   // flags
                columns.append(try reader.string())
                _ = try reader.integer(4)   // type
                _ = try reader.integer(4)   // type modifier
            }
            self = .relation(Relation(oid: oid, namespace: namespace, name: name, columns: columns))
        case UInt8(ascii: "I"):
            let relation = UInt32(truncatingIfNeeded: try reader.integer(4))
            try reader.expect("N")
            self = .insert(relation: relation, new: try reader.tuple())
        case UInt8(ascii: "U"):
            let relation = UInt32(truncatingIfNeeded: try reader.integer(4))
            var old: [String?]?
            var kind = try reader.byte()
            if kind == UInt8(ascii: "K") || kind == UInt8(ascii: "O") {
                old = try reader.tuple()
                kind = try reader.byte()
            }
            guard kind == UInt8(ascii: "N") else { throw DecodingError(description: "update without a new tuple") }
            self = .update(relation: relation, old: old, new: try reader.tuple())
        case UInt8(ascii: "D"):
            let relation = UInt32(truncatingIfNeeded: try reader.integer(4))
            let kind = try reader.byte()
            guard kind == UInt8(ascii: "K") || kind == UInt8(ascii: "O") else { throw DecodingError(description: "delete without its key") }
            self = .delete(relation: relation, old: try reader.tuple())
        case UInt8(ascii: "T"):
            let count = Int(try reader.integer(4))
            _ = try reader.byte()       // options
            self = .truncate(relations: try (0..<count).map { _ in UInt32(truncatingIfNeeded: try reader.integer(4)) })
        default:
            self = .other
        }
    }

    /// Reads a message front to back.
    struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() throws -> UInt8 {
            guard let first = bytes.first else { throw DecodingError(description: "message ends early") }
            bytes = bytes.dropFirst()
            return first
        }

        mutating func expect(_ ascii: Unicode.Scalar) throws {
            let found = try byte()
            guard found == UInt8(ascii: ascii) else { throw DecodingError(description: "expected '\(ascii)', found byte \(found)") }
        }

        /// A big-endian unsigned integer of `size` bytes.
        mutating func integer(_ size: Int) throws -> UInt64 {
            guard bytes.count >= size else { throw DecodingError(description: "message ends early") }
            let value = bytes.prefix(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            bytes = bytes.dropFirst(size)
            return value
        }

        mutating func string() throws -> String {
            guard let end = bytes.firstIndex(of: 0) else { throw DecodingError(description: "string without its end") }
            let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
            bytes = bytes[(end + 1)...]
            return text
        }

        /// `TupleData`: a value per column, `nil` for `NULL` and unchanged TOASTed values.
        mutating func tuple() throws -> [String?] {
            let count = Int(try integer(2))
            var values: [String?] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                switch try byte() {
                case UInt8(ascii: "n"), UInt8(ascii: "u"): values.append(nil)
                case UInt8(ascii: "t"):
                    let length = Int(try integer(4))
                    guard bytes.count >= length else { throw DecodingError(description: "value ends early") }
                    values.append(String(decoding: bytes.prefix(length), as: UTF8.self))
                    bytes = bytes.dropFirst(length)
                case let kind: throw DecodingError(description: "unknown value kind \(kind)")
                }
            }
            return values
        }
    }
}
