import Foundation
import Testing
@testable import Quarry
import QuarryDemo

/// The text of a chunk's long strings: sparse records while few, dense by slot past the limit.
@Suite("Overflow texts of a chunk's long strings")
struct OverflowTextsTests {
    /// A long text for step `step` (ASCII, accented or emoji, 8 to 60 bytes).
    func text(_ step: Int, _ rng: inout SplitMix64) -> String {
        let stems = ["ABCDE.", "caf\u{E9} du coin ", "\u{1F600}\u{1F601} ", "a much longer name than the others, "]
        return stems[rng.below(stems.count)] + String(repeating: "x", count: rng.below(20)) + String(step)
    }

    func set(_ texts: inout OverflowTexts, _ s: String, _ slot: Int, live: Set<Int>) {
        var s = s
        s.withUTF8 { texts.set($0, in: BlockSlot(slot)) { live.contains($0.index) } }
    }

    @Test("slots keep their text through replacements, freed slots, compaction and the turn to dense")
    func modelBased() {
        for seed in 1...20 {
            var rng = SplitMix64(seed: UInt64(seed))
            var texts = OverflowTexts()
            var model: [Int: String] = [:]
            // At most the sparse limit of live slots for the first half (pruning keeps it
            // sparse), then up to 128.
            for step in 0..<3_000 {
                let liveLimit = step < 1_500 ? OverflowTexts.sparseLimit : 128
                if model.count >= liveLimit || (!model.isEmpty && rng.below(3) == 0) {
                    model.removeValue(forKey: model.keys.sorted()[rng.below(model.count)])  // the block frees the slot
                    continue
                }
                let slot = rng.below(ResultsBlock.maxCapacity)
                let s = text(step, &rng)
                model[slot] = s
                set(&texts, s, slot, live: Set(model.keys))
                if step < 1_500 { #expect(!texts.isDense, "seed \(seed) step \(step): at most the limit of live records stay sparse") }
                for (slot, s) in model {
                    #expect(texts.hasText(in: BlockSlot(slot)))
                    #expect(texts.string(in: BlockSlot(slot)) == s, "seed \(seed) step \(step) slot \(slot)")
                }
            }
        }
    }

    @Test("more live long strings than the limit turn dense; every text survives the move")
    func turnsDense() {
        var texts = OverflowTexts()
        var live = Set<Int>()
        for slot in 0..<OverflowTexts.sparseLimit {
            live.insert(slot * 3)
            set(&texts, "long text number \(slot)", slot * 3, live: live)
        }
        #expect(!texts.isDense)
        live.insert(100)
        set(&texts, "the one too many", 100, live: live)
        #expect(texts.isDense)
        for slot in 0..<OverflowTexts.sparseLimit { #expect(texts.string(in: BlockSlot(slot * 3)) == "long text number \(slot)") }
        #expect(texts.string(in: BlockSlot(100)) == "the one too many")
        #expect(!texts.hasText(in: BlockSlot(1)))
        #expect(!texts.hasText(in: BlockSlot(127)))
        set(&texts, "replaced in the dense column", 3, live: live)
        #expect(texts.string(in: BlockSlot(3)) == "replaced in the dense column")
    }

    @Test("comparisons: binary by bytes, equality by canonical equivalence as String's")
    func comparisons() {
        var texts = OverflowTexts()
        let stored = ["b longer than seven", "ab longer than seven", "\u{E9} longer than seven"]
        for (slot, s) in stored.enumerated() { set(&texts, s, slot, live: Set(0..<3)) }
        let probes = ["a", "ab longer than seven", "ab longer than seven!", "b", "", "\u{E9} longer than seven", "e\u{301} longer than seven"]
        for (slot, s) in stored.enumerated() {
            for y in probes {
                #expect(texts.compareBinary(in: BlockSlot(slot), y) == StringMatching.compareBinary(s, y), "\(slot) \(y)")
                #expect(texts.holds(y, in: BlockSlot(slot)) == (s == y), "\(slot) \(y)")
            }
        }
        #expect(texts.holds("e\u{301} longer than seven", in: BlockSlot(2)))
    }
}
