import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A save's updates go to the server in batches (one `UPDATE … FROM (VALUES …)` per run of
/// one entity and the same columns), with the rows whose version moved on taking the one-row
/// conflict path.
@Suite("PostgreSQL batched updates", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLBatchUpdateTests {
    @Test("in one batch of updates, the stale rows are resolved by the policy in order and the others are written at their next version")
    func batchWithSomeConflicts() throws {
        try PostgreSQLScratchStore(label: "batch").withStore { store in
            let ids = try (0..<6).map { try PostgreSQLScratchStore.saveSector(store, "A\($0)") }
            let bases = try store.snapshots(for: ids)
            // Another writer renames sectors 1 and 4 and deletes sector 5.
            var other = StoreChangeSet()
            for i in [1, 4] { other.updates += PostgreSQLScratchStore.renameSector(ids[i], base: bases[ids[i]]!, to: "X\(i)").updates }
            other.deletes = [(id: ids[5], version: 1)]
            _ = try store.save(other) { _ in .fail }

            // Every update is based on version 1; sector 2's name becomes NULL (an untyped bind).
            var changes = StoreChangeSet()
            for (i, id) in ids.enumerated() {
                changes.updates += PostgreSQLScratchStore.renameSector(id, base: bases[id]!, to: "N\(i)").updates
            }
            changes.updates[2].snapshot.values[0] = .null
            var seen: [ObjectID] = []
            let result = try store.save(changes) { conflict in
                seen.append(conflict.objectID)
                return conflict.objectID == ids[1] ? .keepPersisted : .write(conflict.objectSnapshot!)
            }
            #expect(seen == [ids[1], ids[4], ids[5]])
            let now = try store.snapshots(for: ids)
            #expect(ids.map { now[$0]?.values[0] } == [.string("N0"), .string("X1"), .null, .string("N3"), .string("N4"), .string("N5")])
            for i in [0, 2, 3] {
                #expect(result.written[ids[i]]?.version == 2)
                #expect(now[ids[i]]?.version == 2)
            }
            #expect(result.written[ids[4]]?.version == 3 && now[ids[4]]?.version == 3)
            #expect(result.rolledBack[ids[1]] != nil && result.written[ids[1]] == nil)
            #expect(Set(result.changes.updated) == Set([0, 2, 3, 4, 5].map { ids[$0] }))
        }
    }
}
