import Foundation
import Testing
@testable import Quarry

/// Debug builds run the index with tiny chunks and check its invariants, so the model-based
/// tests split, empty and re-chunk even with a few dozen results.
@Suite("Index invariants")
struct IndexInvariantTests {
    typealias Entry = SortedResults.Entry

    private func entries(_ n: Int) -> [Entry] {
        (0..<n).map { Entry(id: ObjectID(entityIndex: 0, primaryKey: Int64($0 + 1)), keys: [.integer(Int64($0))]) }
    }

    #if DEBUG
    @Test("debug builds cut chunks of a few results, so small tests split them")
    func smallChunksInDebugBuilds() {
        #expect(SortedResults.chunkSize == 4 && SortedResults.maxChunk == 8)
        let index = SortedResults(sortKeys: [SortKey("a")], entries: entries(30))
        #expect(index.chunks.count == 8)
        // Ten results into one chunk of four: it splits.
        index.apply(dropping: [], adding: (0..<10).map { Entry(id: ObjectID(entityIndex: 0, primaryKey: 100 + Int64($0)), keys: [.integer(5)]) })
        #expect(index.chunks.allSatisfy { $0.count <= SortedResults.maxChunk })
        #expect(index.chunks.count > 8)
        #expect(index.invariantViolation() == nil)
    }
    #endif

    @Test("a broken mirror is named")
    func violationsAreNamed() {
        let index = SortedResults(sortKeys: [SortKey("a")], entries: entries(20))
        #expect(index.invariantViolation() == nil)
        let id = index.id(at: 7)
        index.positions.remove(id)
        #expect(index.invariantViolation() == "position of \(id) (chunk \(index.locate(7).chunk) row \(index.locate(7).offset))")
        let other = SortedResults(sortKeys: [SortKey("a")], entries: entries(20))
        other.fences.set(.integer(99), at: 0)
        #expect(other.invariantViolation()?.hasPrefix("fence 0") == true)
    }

    @Test("the index is one object: a second reference sees every change")
    func oneIndex() {
        let index = SortedResults(sortKeys: [SortKey("a")], entries: entries(20))
        let alias = index
        index.apply(dropping: [0], adding: [])
        #expect(alias.count == 19 && alias === index)
    }
}
