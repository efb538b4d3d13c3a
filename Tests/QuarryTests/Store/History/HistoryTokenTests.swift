import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Tokens only grow, survive pruning, and a fetch says when pruning took transactions it needed.
@Suite("Persistent history: tokens and pruning")
struct HistoryTokenTests {
    let fixture = HistoryFixture()

    /// Saves `count` one-ticker transactions; returns their tokens.
    private func save(_ count: Int, to store: SQLiteStore, prefix: String = "T") throws -> [HistoryToken] {
        let coordinator = StoreCoordinator(store: store)
        return try (0..<count).map { i in
            try HistoryFixture.insertTickers(["\(prefix)\(i)"], into: coordinator)
            return try #require(try store.currentHistoryToken())
        }
    }

    @Test("tokens rise by one per save, across two stores on one file")
    func monotonic() throws {
        let a = try fixture.store(), b = try fixture.store()
        var tokens: [HistoryToken] = []
        for i in 0..<6 {
            let store = i.isMultiple(of: 2) ? a : b
            tokens += try save(1, to: store, prefix: "M\(i)")
        }
        #expect(tokens.map(\.value) == Array(1...6))
        #expect(try a.history(after: nil, limit: nil).transactions.map(\.token) == tokens)
    }

    @Test("pruning by token deletes older transactions and their changes; tokens are never reused")
    func pruneByTokenNeverReuses() throws {
        let store = try fixture.store()
        let tokens = try save(4, to: store)
        #expect(try store.deleteHistory(before: tokens[2]) == 2)
        #expect(try store.history(after: tokens[1], limit: nil).transactions.map(\.token) == [tokens[2], tokens[3]])
        #expect(try HistoryFixture.rawCounts(store) == (2, 2))
        // Prune everything, then save: the next token continues after the largest ever given.
        #expect(try store.deleteHistory(before: HistoryToken(tokens[3].value + 1)) == 2)
        #expect(try store.currentHistoryToken() == tokens[3])
        let next = try save(1, to: store, prefix: "N")
        #expect(next == [HistoryToken(tokens[3].value + 1)])
    }

    @Test("pruning by date deletes the transactions committed before it")
    func pruneByDate() throws {
        let store = try fixture.store()
        let old = try save(2, to: store)
        // Date the first two transactions back a day, as if they were committed yesterday.
        try store.pool.write { db in
            try db.execute(sql: "UPDATE Z_HISTORYTRANSACTION SET Z_TIMESTAMP = Z_TIMESTAMP - 86400 WHERE Z_TOKEN <= ?", arguments: [old[1].value])
        }
        let recent = try save(1, to: store, prefix: "R")
        #expect(try store.deleteHistory(before: Date().addingTimeInterval(-3600)) == 2)
        #expect(try store.history(after: nil, limit: nil).transactions.map(\.token) == recent)
    }

    @Test("a fetch after a token is expired exactly when a newer transaction was pruned")
    func expiredDetection() throws {
        let store = try fixture.store()
        let tokens = try save(4, to: store)
        try store.deleteHistory(before: tokens[2])   // prunes tokens[0], tokens[1]
        #expect(try store.history(after: nil, limit: nil).isExpired)
        #expect(try store.history(after: tokens[0], limit: nil).isExpired)
        #expect(try !store.history(after: tokens[1], limit: nil).isExpired)
        #expect(try !store.history(after: tokens[3], limit: nil).isExpired)
        // Another process's store sees the same (the bookkeeping is in the file).
        let other = try fixture.store()
        #expect(try other.history(after: tokens[0], limit: nil).isExpired)
    }

    @Test("limit returns the oldest transactions first and says more follow")
    func limit() throws {
        let store = try fixture.store()
        let tokens = try save(5, to: store)
        let page = try store.history(after: tokens[0], limit: 2)
        #expect(page.transactions.map(\.token) == [tokens[1], tokens[2]])
        #expect(page.hasMore)
        let rest = try store.history(after: tokens[2], limit: 2)
        #expect(rest.transactions.map(\.token) == [tokens[3], tokens[4]] && !rest.hasMore)
    }

    @Test("pruning a read-only store is refused and writes nothing")
    func readOnlyPruneRefused() throws {
        _ = try save(2, to: try fixture.store())
        let reader = try fixture.store(readOnly: true)
        #expect(reader.recordsHistory)
        #expect(throws: StoreError.self) { try reader.deleteHistory(before: HistoryToken(5)) }
        #expect(try reader.history(after: nil, limit: nil).transactions.count == 2)
    }
}
