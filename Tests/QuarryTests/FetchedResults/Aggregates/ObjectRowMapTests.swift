import Testing
@testable import Quarry
import QuarryDemo

/// The aggregate table's object → row map: dense per entity over compact keys, a dictionary
/// for the rest, always answering as a dictionary would.
@Suite("Object row map")
struct ObjectRowMapTests {
    @Test("random sets and removes over compact, far-off and temporary keys of two entities answer as a dictionary", arguments: [1, 2, 3])
    func matchesADictionary(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var map = ObjectRowMap()
        var expected: [ObjectID: Int32] = [:]
        func randomID() -> ObjectID {
            let entity = rng.below(2)
            switch rng.below(10) {
            case 0: return ObjectID(entityIndex: entity, primaryKey: -Int64(1 + rng.below(50)))          // temporary
            case 1: return ObjectID(entityIndex: entity, primaryKey: Int64(1_000_000 + rng.below(1_000)))  // far off
            default: return ObjectID(entityIndex: entity, primaryKey: Int64(rng.below(5_000)))            // compact
            }
        }
        for step in 0..<40_000 {
            let id = randomID()
            if rng.below(3) == 0 {
                #expect(map.removeValue(forKey: id) == expected.removeValue(forKey: id), "step \(step): remove \(id)")
            } else {
                let row = Int32(rng.below(100_000))
                map.set(row, for: id)
                expected[id] = row
            }
            #expect(map[id] == expected[id], "step \(step): \(id)")
        }
        #expect(map.count == expected.count)
        for (id, row) in expected { #expect(map[id] == row) }
        #expect(map[ObjectID(entityIndex: 7, primaryKey: 3)] == nil, "an entity never seen")
    }
}
