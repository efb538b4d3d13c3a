import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The `__STD` shadow column's encoding: byte order must be ``StandardStringOrder``'s (no server needed).
@Suite("PostgreSQL standard sort key")
struct PostgreSQLStandardSortKeyTests {
    static func memcmpOrder(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    static func sign(_ c: Int) -> Int { c < 0 ? -1 : (c > 0 ? 1 : 0) }

    @Test("memcmp of two keys orders like StandardStringOrder.compare, over the parity test's names and random strings")
    func byteOrderIsStandardOrder() {
        var rng = FuzzRandom(seed: 0x5157_D00D)
        let alphabet: [String] = ["a", "A", "b", "0", "1", "9", "01", "é", "E", "e\u{301}", "ß", "東", " ", "-", "\u{0}", "😀", "Z", "10", "z"]
        var strings = PredicateParityTests.names.compactMap { $0 } + ["", "0", "00", "a0", "a00", "a0b", "a", "a1b", "x\u{0}y", "x", "x\u{0}", "file002", "file2a"]
        for _ in 0..<300 {
            strings.append((0..<rng.below(6)).map { _ in alphabet[rng.below(alphabet.count)] }.joined())
        }
        var mismatches: [String] = []
        for a in strings {
            let ka = PostgreSQLStandardSortKey.key(a)
            for b in strings {
                let expected = Self.sign(StandardStringOrder.compare(a, b))
                let got = Self.memcmpOrder(ka, PostgreSQLStandardSortKey.key(b))
                if expected != got && mismatches.count < 5 { mismatches.append("\(a.debugDescription) vs \(b.debugDescription): \(got), expected \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test("digit runs compare by value, then fewer leading zeros' binary tie-break")
    func digitRuns() {
        let sorted = ["file1", "file01", "file2", "file10", "File10b", "file10c"].sorted {
            Self.memcmpOrder(PostgreSQLStandardSortKey.key($0), PostgreSQLStandardSortKey.key($1)) < 0
        }
        #expect(sorted == ["file01", "file1", "file2", "file10", "File10b", "file10c"])
    }

    @Test("an ASCII string's key, made from its bytes, is the key the chunked path makes")
    func asciiKeyIsTheChunkedKey() {
        var rng = FuzzRandom(seed: 0xA5C1_1005)
        let alphabet: [String] = ["a", "Z", "q", "0", "1", "9", "007", " ", "-", "\u{0}", "\r\n", "\t", "~", "_", "M", "5"]
        var strings = ["", "0", "00", "000a", "a0", "A00b", "x\u{0}y", "\u{0}", "FILE002", "file2A", "\r\n12\r\n"]
        for _ in 0..<2_000 {
            strings.append((0..<rng.below(9)).map { _ in alphabet[rng.below(alphabet.count)] }.joined())
        }
        let differing = strings.filter { PostgreSQLStandardSortKey.asciiKey($0) != PostgreSQLStandardSortKey.chunkedKey($0) }
        #expect(differing.isEmpty, "\(differing.prefix(5).map(\.debugDescription))")
    }
}
