import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// Optimistic locking: a context based on version 1 saves after another saved version 2.
@Suite("InMemoryStore conflicts")
struct InMemoryStoreConflictTests {
    /// A ticker at version 2 (price changed elsewhere) and the version-1 snapshot a stale context holds.
    private func staleTicker(_ f: InMemoryStoreFixture) throws -> (id: ObjectID, stale: Snapshot, persisted: Snapshot) {
        let id = try f.insertAll([f.insert("Ticker", ["symbol": .string("ACME"), "name": .string("Acme")])])[0]
        let stale = try #require(try f.row(id))
        try f.save(updates: [f.update(id, from: stale, ["price": .double(20)])])
        return (id, stale, try #require(try f.row(id)))
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func conflictCarriesAllThreeSnapshots(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, persisted) = try staleTicker(f)
        let change = f.update(id, from: stale, ["name": .string("Acme Inc")])
        var seen: [MergeConflict] = []
        try f.save(updates: [change]) { seen.append($0); return .keepPersisted }

        #expect(seen.count == 1)
        #expect(seen[0].objectID == id)
        #expect(seen[0].entityName == "Ticker")
        #expect(seen[0].cachedSnapshot == stale)
        #expect(seen[0].persistedSnapshot == persisted)
        #expect(seen[0].objectSnapshot == change.snapshot)
        #expect(seen[0].changed == change.changed)
        #expect(seen[0].oldVersion == 1 && seen[0].newVersion == 2)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func writeResolutionStoresTheGivenStatePastThePersistedVersion(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, persisted) = try staleTicker(f)
        var merged = persisted
        merged.values[f.entity("Ticker").attributeIndex("name")!] = .string("Acme Inc")
        let result = try f.save(updates: [f.update(id, from: stale, ["name": .string("Acme Inc")])]) { _ in .write(merged) }

        var expected = merged
        expected.version = 3
        #expect(try f.row(id) == expected)
        #expect(result.written[id] == expected)
        #expect(result.changes.updated == [id])
        #expect(result.rolledBack.isEmpty)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func keepPersistedResolutionLeavesTheRowAndReportsIt(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, persisted) = try staleTicker(f)
        let result = try f.save(updates: [f.update(id, from: stale, ["name": .string("Acme Inc")])]) { _ in .keepPersisted }

        #expect(try f.row(id) == persisted)
        #expect(result.rolledBack[id] == .some(persisted))
        #expect(result.changes.isEmpty)
        #expect(result.written[id] == nil)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func deleteResolutionRemovesTheRow(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, _) = try staleTicker(f)
        let result = try f.save(updates: [f.update(id, from: stale, ["name": .string("Acme Inc")])]) { _ in .delete }

        #expect(try f.row(id) == nil)
        #expect(result.changes.deleted == [id])
        #expect(result.rolledBack[id] == .some(nil))
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func failResolutionListsEveryConflictAndLeavesTheStoreUnchanged(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (first, firstStale, firstPersisted) = try staleTicker(f)
        let (second, secondStale, secondPersisted) = try staleTicker(f)
        let fresh = try f.insertAll([f.insert("Tag", ["label": .string("a")])])[0]
        let freshRow = try f.row(fresh)

        let error = #expect(throws: MergeConflictError.self) {
            try f.save(inserts: [f.insert("Tag", ["label": .string("new")])],
                       updates: [f.update(first, from: firstStale, ["name": .string("x")]),
                                 f.update(fresh, from: freshRow!, ["label": .string("b")])],
                       deletes: [(second, secondStale.version)])
        }
        #expect(error?.conflicts.map(\.objectID) == [first, second])
        #expect(error?.conflicts[1].objectSnapshot == nil)
        #expect(try f.row(first) == firstPersisted)
        #expect(try f.row(second) == secondPersisted)
        #expect(try f.row(fresh) == freshRow)
        #expect(try f.count("Tag") == 1)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func staleDeleteConflictsAndKeepPersistedKeepsTheRow(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, persisted) = try staleTicker(f)
        var seen: MergeConflict?
        let result = try f.save(deletes: [(id, stale.version)]) { seen = $0; return .keepPersisted }

        #expect(seen?.persistedSnapshot == persisted)
        #expect(seen?.objectSnapshot == nil)
        #expect(try f.row(id) == persisted)
        #expect(result.rolledBack[id] == .some(persisted))
        #expect(result.changes.deleted.isEmpty)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func staleDeleteWithDeleteResolutionRemovesTheRow(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, _) = try staleTicker(f)
        let result = try f.save(deletes: [(id, stale.version)]) { _ in .delete }
        #expect(try f.row(id) == nil)
        #expect(result.changes.deleted == [id])
        #expect(result.rolledBack.isEmpty)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func staleDeleteWithWriteResolutionKeepsTheGivenState(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let (id, stale, persisted) = try staleTicker(f)
        let result = try f.save(deletes: [(id, stale.version)]) { _ in .write(persisted) }
        var expected = persisted
        expected.version = 3
        #expect(try f.row(id) == expected)
        #expect(result.rolledBack[id] == .some(expected))
        #expect(result.changes.updated == [id])
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func updateOfARowDeletedElsewhereConflictsWithNoPersistedState(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let id = try f.insertAll([f.insert("Tag", ["label": .string("a")])])[0]
        let stale = try #require(try f.row(id))
        try f.save(deletes: [(id, 1)])

        var seen: MergeConflict?
        let result = try f.save(updates: [f.update(id, from: stale, ["label": .string("b")])]) { seen = $0; return .keepPersisted }
        #expect(seen?.persistedSnapshot == nil)
        #expect(seen?.newVersion == 0)
        #expect(result.rolledBack[id] == .some(nil))
        #expect(try f.row(id) == nil)
    }
}
