import Dispatch
import Foundation
@testable import Quarry
import QuarryTestSupport
import Synchronization
import Testing

@Suite("InMemoryStore concurrency")
struct InMemoryStoreConcurrencyTests {
    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func concurrentSavesAllocateDistinctPrimaryKeys(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind, checksFolderAfterSaves: false)
        let saved = LockedValue<[ObjectID]>([])
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<25 {
                let inserts = [f.insert("Tag", ["label": .string("w\(worker)-\(i)")]), f.insert("Tag", ["label": .string("x")])]
                do {
                    let ids = try f.insertAll(inserts)
                    saved.withLock { $0.append(contentsOf: ids) }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        let ids = saved.withLock { $0 }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(Set(ids).count == 400)
        #expect(ids.map(\.primaryKey).sorted() == Array(1...400))
        #expect(try f.count("Tag") == 400)
        try f.checkFolder()
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func concurrentUpdatesOfOneRowLetExactlyOneWin(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind, checksFolderAfterSaves: false)
        let id = try f.insertAll([f.insert("Ticker", ["symbol": .string("ACME")])])[0]
        let base = try #require(try f.row(id))
        let winners = Atomic<Int>(0), conflicts = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                try f.save(updates: [f.update(id, from: base, ["volume": .integer(Int64(worker))])])
                winners.add(1, ordering: .relaxed)
            } catch is MergeConflictError {
                conflicts.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(winners.load(ordering: .relaxed) == 1)
        #expect(conflicts.load(ordering: .relaxed) == 7)
        #expect(try f.row(id)?.version == 2)
        try f.checkFolder()
    }
}
