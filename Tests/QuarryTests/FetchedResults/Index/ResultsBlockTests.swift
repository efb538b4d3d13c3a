import Foundation
import Testing
@testable import Quarry

/// One chunk's block: its layout follows the IDs it holds, and slots stay put.
@Suite("Results block")
struct ResultsBlockTests {
    typealias Entry = SortedResults.Entry

    private func chunk(_ pks: [Int64], entity: Int32 = 0) -> ResultsChunk {
        ResultsChunk(handle: 0, pks: pks[...], entities: [Int32](repeating: entity, count: pks.count)[...],
                     columns: [KeyColumn(pks.map { Value.integer($0 * 10) })])
    }

    @Test("primary keys take four bytes and the entity none while every result fits")
    func narrowWhileItFits() {
        let narrow = chunk([1, 2, 3])
        #expect(narrow.block.shape.primaryKeyWidth == .narrow)
        #expect(!narrow.block.shape.entitiesPerSlot)
        #expect(ResultsBlock.Shape(capacity: 64, keys: 1).byteCount < ResultsBlock.Shape(capacity: 64, keys: 1, primaryKeyWidth: .wide, entitiesPerSlot: true).byteCount)
        #expect(chunk([1, Int64(UInt32.max) + 1]).block.shape.primaryKeyWidth == .wide)
    }

    @Test("an integer-keyed block of 64 results, with room for 8 more, takes at most 16 bytes a result")
    func integerKeysAreSmall() {
        // 4-byte keys, no entity per slot, one word per key, a null bitmap per column: the
        // 24-bytes-a-result budget of the whole index (quarry-bench frc-fetch) leaves the
        // rest to the position index and the chunk records.
        let shape = ResultsBlock.Shape(capacity: 72, keys: 1)
        #expect(shape.byteCount <= 64 * 16)
    }

    @Test("a temporary ID or another entity widens the block, keeping every slot and key")
    func widening() {
        let c = chunk([1, 2, 3])
        let slots = (0..<3).map { c.block.slot(ofRow: $0) }
        let temporary = ObjectID.temporary(entityIndex: 0)
        c.insert(Entry(id: temporary, keys: [.integer(-5)]), at: 0)
        #expect(c.block.shape.primaryKeyWidth == .wide)
        c.insert(Entry(id: ObjectID(entityIndex: 3, primaryKey: 9), keys: [.integer(25)]), at: 3)
        #expect(c.block.shape.entitiesPerSlot)
        #expect((0..<c.count).map(c.id) == [temporary, ObjectID(entityIndex: 0, primaryKey: 1), ObjectID(entityIndex: 0, primaryKey: 2),
                                            ObjectID(entityIndex: 3, primaryKey: 9), ObjectID(entityIndex: 0, primaryKey: 3)])
        #expect((0..<c.count).map { c.value(0, at: $0) } == [.integer(-5), .integer(10), .integer(20), .integer(25), .integer(30)])
        #expect([1, 2, 4].map { c.block.slot(ofRow: $0) } == slots)
    }

    @Test("a value of another kind boxes the column; nils are flagged per slot")
    func boxingAndNils() {
        let c = chunk([1, 2])
        c.insert(Entry(id: ObjectID(entityIndex: 0, primaryKey: 3), keys: [.null]), at: 0)
        #expect(!c.isBoxed(0))
        #expect(c.value(0, at: 0) == .null && c.value(0, at: 1) == .integer(10))
        c.insert(Entry(id: ObjectID(entityIndex: 0, primaryKey: 4), keys: [.string("x")]), at: 3)
        #expect(c.isBoxed(0))
        #expect((0..<c.count).map { c.value(0, at: $0) } == [.null, .integer(10), .integer(20), .string("x")])
    }

    @Test("a full block grows, slots kept, up to the chunk's maximum")
    func growing() {
        let c = chunk((1...Int64(SortedResults.chunkSize)).map { $0 })
        let capacity = c.block.capacity
        for i in 0..<(capacity - c.count + 1) {
            c.insert(Entry(id: ObjectID(entityIndex: 0, primaryKey: 1_000 + Int64(i)), keys: [.integer(100_000)]), at: c.count)
        }
        #expect(c.block.capacity > capacity)
        #expect(c.block.capacity % 8 == 0 && c.block.capacity <= ResultsBlock.maxCapacity)
        #expect(c.id(0) == ObjectID(entityIndex: 0, primaryKey: 1))
    }
}

/// The one prefetch pipeline: every stage runs once per item, its lead ahead of the body.
@Suite("Prefetch pipeline")
struct PrefetchPipelineTests {
    @Test("each stage runs once per item, lead items before the item's body", arguments: [0, 1, 5, 40])
    func order(count: Int) {
        var events: [(stage: Int?, item: Int)] = []
        PrefetchPipeline(leads: [8, 3, 0]).run(count: count, stage: { events.append(($0, $1)) }, body: { events.append((nil, $0)) })
        let bodies = events.enumerated().filter { $0.element.stage == nil }
        #expect(bodies.map(\.element.item) == Array(0..<count))
        for (s, lead) in [8, 3, 0].enumerated() {
            let runs = events.enumerated().filter { $0.element.stage == s }
            #expect(runs.map(\.element.item) == Array(0..<count), "stage \(s)")
            for run in runs {
                // The body this stage runs just before: `lead` items earlier, or the first.
                let bodyPosition = bodies[max(0, run.element.item - lead)].offset
                #expect(run.offset < bodies[run.element.item].offset)
                if run.element.item >= lead { #expect(run.offset < bodyPosition && run.offset > (bodyPosition > 0 && run.element.item - lead > 0 ? bodies[run.element.item - lead - 1].offset : -1)) }
            }
        }
    }
}
