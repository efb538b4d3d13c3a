import Foundation
import Testing
@testable import Quarry
import QuarryDemo

/// String sort keys kept as one buffer of UTF-8 bytes per column.
@Suite("UTF-8 string column")
struct UTF8ColumnTests {
    @Test("rows keep their text through inserts, overwrites, removals and compaction")
    func edits() {
        var column = UTF8Column()
        var model: [String] = []
        var rng = SplitMix64(seed: 11)
        let texts = ["", "a", "AAPL", "a longer text than fifteen bytes", "ch\u{E9}", "\u{1F600} emoji", "nul\u{0}inside"]
        for step in 0..<2_000 {
            let text = texts[rng.below(texts.count)] + String(step % 7)
            switch model.isEmpty ? 0 : rng.below(4) {
            case 0: let i = rng.below(model.count + 1); column.insert(text, at: i); model.insert(text, at: i)
            case 1: let i = rng.below(model.count); column.set(text, at: i); model[i] = text
            case 2: let i = rng.below(model.count); column.remove(at: i); model.remove(at: i)
            default: column.append(text); model.append(text)
            }
        }
        #expect((0..<column.count).map(column.string(at:)) == model)
    }

    @Test("comparisons: binary by bytes, equality by canonical equivalence as String's")
    func comparisons() {
        var column = UTF8Column()
        for s in ["b", "ab", "", "\u{E9}"] { column.append(s) }
        let probes = ["a", "ab", "abc", "b", "", "\u{E9}", "e\u{301}"]
        for i in 0..<column.count {
            for y in probes {
                #expect(column.compareBinary(i, y) == StringMatching.compareBinary(column.string(at: i), y), "\(i) \(y)")
                #expect(column.holds(y, at: i) == (column.string(at: i) == y), "\(i) \(y)")
            }
        }
        #expect(column.holds("e\u{301}", at: 3))
    }

    @Test("a string key column of a chunk is one UTF-8 column, not a String per row")
    func chunksKeepStringsAsUTF8() {
        let column = KeyColumn((0..<10).map { Value.string("symbol \($0)") })
        #expect(column.kind == .string && column.strings.count == 10)
        #expect(column.value(at: 4) == .string("symbol 4"))
    }
}
