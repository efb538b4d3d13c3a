import Foundation
import Testing
@testable import Quarry
import QuarryDemo

/// String sort keys in the block's words: short strings whole, longer ones' first bytes with
/// the text in the chunk.
@Suite("String words")
struct StringWordTests {
    typealias Entry = SortedResults.Entry

    /// Strings around the seven-byte boundary, with NULs, non-ASCII text and shared prefixes.
    static let texts = ["", "\u{0}", "\u{0}\u{0}", "A", "AA", "A\u{0}", "AB", "ABCDEFG", "ABCDEFG\u{0}", "ABCDEFGH", "ABCDEFGHI",
                        "ABCDEF\u{E9}", "ABCDEFGA", "ABCDEFGZZZZ", "B", "Z", "a", "ch\u{E9}", "che\u{301}", "\u{E9}", "e\u{301}",
                        "\u{1F600}", "\u{1F600}\u{1F600}", "AAPL", "MSFT", "a longer text than fifteen bytes",
                        "ABCDEFGK", "ABCDEFG\u{212A}", "ABCDEF\u{212A}", "ABCDEFK"]

    @Test("two different words order their strings by bytes; equal words are equal strings unless both are long")
    func wordsOrderLikeBytes() {
        for a in Self.texts {
            for b in Self.texts {
                let x = StringWord.make(a), y = StringWord.make(b)
                let bytes = StringMatching.compareBinary(a, b)
                if x != y {
                    #expect((x < y ? -1 : 1) == bytes, "\(a.debugDescription) vs \(b.debugDescription)")
                } else if StringWord.isInline(x) {
                    #expect(bytes == 0, "\(a.debugDescription) vs \(b.debugDescription)")
                }
            }
        }
    }

    @Test("a string of up to seven bytes is held whole, NULs and all")
    func inlineRoundTrip() {
        for text in Self.texts {
            let word = StringWord.make(text)
            #expect(StringWord.isInline(word) == (text.utf8.count <= StringWord.inlineCapacity), "\(text.debugDescription)")
            if StringWord.isInline(word) {
                #expect(StringWord.string(ofInline: word) == text)
                #expect(StringWord.isASCII(word) == text.utf8.allSatisfy { $0 < 0x80 })
            }
        }
    }

    @Test("a long string's first bytes tell it apart from another text only when both show ASCII there")
    func longStringsToldApartByTheirFirstBytes() {
        // Canonical equivalence makes some different bytes equal text: the Kelvin sign is K,
        // a combining accent after e is é; these must stay "cannot tell".
        let pitfalls = ["ABCDEFGK", "ABCDEFG\u{212A}", "ABCDEF\u{212A}", "ABCDEFK", "ABCDEFGe\u{301}", "ABCDEFG\u{E9}",
                        "ABCDEFG", "ABCDEFGH", "ABCDEFGHI", "XBCDEFGH", "\u{212A}BCDEFGH", "KBCDEFGH", "AAPL.123", "AAPL.124"]
        for a in Self.texts + pitfalls {
            let x = StringWord.make(a)
            guard !StringWord.isInline(x) else { continue }
            for b in Self.texts + pitfalls {
                let differs = StringWord.differsFromLong(x, StringWord.make(b))
                if differs { #expect(a != b, "\(a.debugDescription) told apart from \(b.debugDescription)") }
                // What it is for: ASCII texts with different first bytes, or a short one.
                if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) && !a.utf8.prefix(7).elementsEqual(b.utf8.prefix(7)) {
                    #expect(differs, "\(a.debugDescription) vs \(b.debugDescription)")
                }
            }
        }
        #expect("ABCDEFG\u{212A}" == "ABCDEFGK" && "ABCDEF\u{212A}" == "ABCDEFK", "the pitfalls are equal text")
    }

    /// A chunk of `texts` (in order), keyed by one string key.
    private func chunk(_ texts: [Value]) -> ResultsChunk {
        ResultsChunk(handle: 0, pks: (1...Int64(texts.count)).map { $0 }[...], entities: [Int32](repeating: 0, count: texts.count)[...],
                     columns: [KeyColumn(texts)], capacity: (texts.count + 7) / 8 * 8)
    }

    @Test("a chunk of strings keeps them in its block's words, long ones' text beside it, and answers as SortKey does")
    func chunkOfStrings() {
        let sorted = Self.texts.sorted { StringMatching.compareBinary($0, $1) < 0 }
        let values = [Value.null] + sorted.map(Value.string)
        let c = chunk(values)
        #expect(!c.isBoxed(0) && c.block.mode(0) == .string)
        #expect(c.overflowViolation() == nil)
        #expect((0..<c.count).map { c.value(0, at: $0) } == values)
        #expect(c.column(0).kind == .string && (0..<c.count).map(c.column(0).value(at:)) == values)
        for comparison in [SortKey.StringComparison.binary, .caseInsensitive, .localizedStandard] {
            let key = SortKey("x", comparison: comparison)
            for (row, a) in values.enumerated() {
                for b in values + [.integer(3)] {
                    #expect(c.compare(0, row, b, key: key) == key.compare(a, b), "\(a) vs \(b) (\(comparison))")
                    #expect(c.holds(0, b, at: row) == (a == b), "\(a) holds \(b)")
                }
            }
        }
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() { #expect(c.same(0, i, as: c, j) == (a == b), "\(a) same as \(b)") }
        }
    }

    @Test("inserting long and short strings into free slots keeps each slot's text, through growth")
    func insertions() {
        let c = chunk([.string("M")])
        var model: [Value] = [.string("M")]
        var rng = SplitMix64(seed: 5)
        for n in 0..<40 {
            let text = Self.texts[rng.below(Self.texts.count)] + String(n)
            let row = rng.below(c.count + 1)
            if rng.below(3) == 0 && c.count > 1 {
                let drop = rng.below(c.count)
                c.remove(at: drop)
                model.remove(at: drop)
            }
            let at = min(row, c.count)
            c.insert(Entry(id: ObjectID(entityIndex: 0, primaryKey: 100 + Int64(n)), keys: [.string(text)]), at: at)
            model.insert(.string(text), at: at)
        }
        #expect(!c.isBoxed(0))
        #expect(c.overflowViolation() == nil)
        #expect((0..<c.count).map { c.value(0, at: $0) } == model)
    }

    @Test("a value of another kind boxes a string column, long strings' text included")
    func boxingKeepsLongText() {
        let c = chunk([.string("short"), .string("a longer text")])
        c.insert(Entry(id: ObjectID(entityIndex: 0, primaryKey: 9), keys: [.integer(1)]), at: 2)
        #expect(c.isBoxed(0))
        #expect((0..<c.count).map { c.value(0, at: $0) } == [.string("short"), .string("a longer text"), .integer(1)])
    }

    @Test("a million short symbols cost no memory beyond the block: no text is kept beside it")
    func shortSymbolsNeedNoOverflow() {
        let c = chunk(["AAPL", "MSFT", "Z", "ABCDEFG"].map(Value.string))
        #expect(c.overflowViolation() == nil)
        #expect((0..<c.count).allSatisfy { !c.block.holdsOverflowString(0, c.block.slot(ofRow: $0)) })
    }
}
