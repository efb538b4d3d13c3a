import Testing
@testable import Quarry

/// `pgoutput` messages decode as PostgreSQL's "Logical Replication Message Formats" lay them
/// out, and a truncated or unknown one is an error, never a wrong change.
@Suite("pgoutput messages")
struct PGOutputMessageTests {
    /// Big-endian bytes of `value` in `size` bytes.
    static func be(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func string(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }

    /// `TupleData` of `values` (`nil`: `NULL`).
    static func tuple(_ values: [String?]) -> [UInt8] {
        be(UInt64(values.count), 2) + values.flatMap { value -> [UInt8] in
            guard let value else { return [UInt8(ascii: "n")] }
            return [UInt8(ascii: "t")] + be(UInt64(value.utf8.count), 4) + Array(value.utf8)
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> PGOutputMessage { try PGOutputMessage(decoding: bytes[...]) }

    @Test("begin, commit, relation, insert, update with its old key, delete and truncate")
    func everyChangeMessage() throws {
        #expect(try Self.decode([UInt8(ascii: "B")] + Self.be(0x10, 8) + Self.be(1, 8) + Self.be(77, 4)) == .begin(xid: 77))
        #expect(try Self.decode([UInt8(ascii: "C"), 0] + Self.be(0x10, 8) + Self.be(0x20, 8) + Self.be(1, 8)) == .commit(end: 0x20))
        let relation: [UInt8] = [UInt8(ascii: "R")] + Self.be(16_384, 4) + Self.string("shop") + Self.string("company") + [UInt8(ascii: "d")]
            + Self.be(2, 2) + [1] + Self.string("id") + Self.be(20, 4) + Self.be(UInt64(UInt32.max), 4)
            + [0] + Self.string("name") + Self.be(25, 4) + Self.be(UInt64(UInt32.max), 4)
        #expect(try Self.decode(relation) == .relation(.init(oid: 16_384, namespace: "shop", name: "company", columns: ["id", "name"])))
        let insert = [UInt8(ascii: "I")] + Self.be(16_384, 4) + [UInt8(ascii: "N")] + Self.tuple(["7", "Zoë"])
        #expect(try Self.decode(insert) == .insert(relation: 16_384, new: ["7", "Zoë"]))
        let update = [UInt8(ascii: "U")] + Self.be(16_384, 4) + [UInt8(ascii: "K")] + Self.tuple(["7", nil])
            + [UInt8(ascii: "N")] + Self.tuple(["8", "Zoë"])
        #expect(try Self.decode(update) == .update(relation: 16_384, old: ["7", nil], new: ["8", "Zoë"]))
        let plain = [UInt8(ascii: "U")] + Self.be(16_384, 4) + [UInt8(ascii: "N")] + Self.tuple(["8", nil])
        #expect(try Self.decode(plain) == .update(relation: 16_384, old: nil, new: ["8", nil]))
        let delete = [UInt8(ascii: "D")] + Self.be(16_384, 4) + [UInt8(ascii: "K")] + Self.tuple(["8", nil])
        #expect(try Self.decode(delete) == .delete(relation: 16_384, old: ["8", nil]))
        let truncate = [UInt8(ascii: "T")] + Self.be(2, 4) + [0] + Self.be(1, 4) + Self.be(2, 4)
        #expect(try Self.decode(truncate) == .truncate(relations: [1, 2]))
        #expect(try Self.decode([UInt8(ascii: "O")] + Self.be(1, 8) + Self.string("origin")) == .other)
    }

    @Test("a truncated message or tuple, or a value of an unknown kind, is an error")
    func malformedMessagesThrow() {
        let insert = [UInt8(ascii: "I")] + Self.be(1, 4) + [UInt8(ascii: "N")] + Self.tuple(["12345"])
        for length in [0, 3, 6, insert.count - 1] {
            #expect(throws: PGOutputMessage.DecodingError.self) { try Self.decode(Array(insert.prefix(length))) }
        }
        let unknownKind = [UInt8(ascii: "I")] + Self.be(1, 4) + [UInt8(ascii: "N")] + Self.be(1, 2) + [UInt8(ascii: "x")]
        #expect(throws: PGOutputMessage.DecodingError.self) { try Self.decode(unknownKind) }
        let deleteWithoutKey = [UInt8(ascii: "D")] + Self.be(1, 4) + [UInt8(ascii: "N")] + Self.tuple(["1"])
        #expect(throws: PGOutputMessage.DecodingError.self) { try Self.decode(deleteWithoutKey) }
    }
}
