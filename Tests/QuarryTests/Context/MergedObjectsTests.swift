import Testing
@testable import Quarry

/// The value a merge announces for the objects of one kind it did not load: IDs with, in the
/// same order, their stored states and changed properties, all or none of each.
@Suite("Merged objects")
struct MergedObjectsTests {
    func id(_ n: Int64) -> ObjectID { ObjectID(entityIndex: 0, primaryKey: n) }
    func state(_ n: Int64) -> Snapshot { Snapshot(values: [.integer(n)], toOne: [], version: n) }

    @Test("appended objects keep their order, states and changed properties, read by position or in a loop")
    func appendAndIterate() {
        var merged = MergedObjects(carryingSnapshots: true, changedBits: true)
        merged.reserveCapacity(3)
        for n: Int64 in 1...3 { merged.append(id(n), snapshot: state(n), changedBits: UInt64(n) << 1) }
        #expect(merged.count == 3)
        #expect(merged.ids == [id(1), id(2), id(3)])
        #expect(merged.snapshots == [state(1), state(2), state(3)])
        #expect(merged.changedBits == [2, 4, 6])
        #expect(merged[1] == MergedObjects.Element(id: id(2), snapshot: state(2)))
        #expect(merged.snapshot(at: 2) == state(3))
        #expect(merged.changedBits(at: 0) == 2)
        #expect(merged.map(\.id) == merged.ids)
        #expect(merged.compactMap(\.snapshot) == merged.snapshots)
        #expect(merged.invariantViolation() == nil)
    }

    @Test("without carried states or changed properties, lookups give none")
    func notCarried() {
        var merged = MergedObjects(carryingSnapshots: false, changedBits: false)
        merged.append(id(1))
        merged.append(id(2))
        #expect(!merged.carriesSnapshots && !merged.carriesChangedBits)
        #expect(merged.snapshots.isEmpty && merged.changedBits.isEmpty)
        #expect(merged.snapshot(at: 1) == nil && merged.changedBits(at: 1) == nil)
        #expect(merged[0] == MergedObjects.Element(id: id(1), snapshot: nil))
        #expect(merged.invariantViolation() == nil)
    }

    @Test("a save's arrays are taken whole; an absent array is not carried")
    func wholeSave() {
        let merged = MergedObjects(ids: [id(1), id(2)], snapshots: [state(1), state(2)], changedBits: nil)
        #expect(merged.carriesSnapshots && !merged.carriesChangedBits)
        #expect(merged.map(\.snapshot) == [state(1), state(2)])
        #expect(merged.changedBits(at: 0) == nil)
        #expect(merged.invariantViolation() == nil)
    }

    @Test("empty values are equal whatever they would carry, and announce nothing")
    func empty() {
        #expect(MergedObjects().isEmpty)
        #expect(MergedObjects(carryingSnapshots: true, changedBits: true) == MergedObjects())
        #expect(MergedObjects(ids: [], snapshots: [], changedBits: []) == MergedObjects())
        #expect(ObjectsDidChange().isEmpty)
        var change = ObjectsDidChange()
        change.mergedUpdated = MergedObjects(ids: [id(1)], snapshots: nil, changedBits: nil)
        #expect(!change.isEmpty)
    }
}
