import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A reader that skips its own stack's saves asks for the history without their changes: the
/// transactions all come back, in order, and only the other writers' carry changes.
@Suite("Persistent history: leaving one origin's changes unread")
struct HistoryOmittedOriginTests {
    let fixture = HistoryFixture()

    @Test("the omitted origin's transactions come back without changes; runs of the others' with all of theirs")
    func omittedOriginsChangesAreNotRead() throws {
        let own = UUID(), other = UUID()
        let ownStore = try fixture.store(origin: own)
        let otherStore = try fixture.store(origin: other)
        let ownCoordinator = StoreCoordinator(store: ownStore)
        let otherCoordinator = StoreCoordinator(store: otherStore)
        // own, other, other, own, other: two runs of the other writer's transactions.
        try HistoryFixture.insertTickers(["A1", "A2"], into: ownCoordinator)
        try HistoryFixture.insertTickers(["B1"], into: otherCoordinator)
        try HistoryFixture.insertTickers(["B2", "B3"], into: otherCoordinator)
        try HistoryFixture.insertTickers(["A3"], into: ownCoordinator)
        try HistoryFixture.insertTickers(["B4"], into: otherCoordinator)

        let all = try ownStore.history(after: nil, limit: nil)
        let omitted = try ownStore.history(after: nil, limit: nil, omittingChangesOf: own)
        #expect(omitted.transactions.map(\.token) == all.transactions.map(\.token))
        #expect(omitted.transactions.map(\.origin) == [own, other, other, own, other])
        #expect(all.transactions.map(\.changes.count) == [2, 1, 2, 1, 1])
        #expect(omitted.transactions.map(\.changes.count) == [0, 1, 2, 0, 1])
        for (a, o) in zip(all.transactions, omitted.transactions) where o.origin == other {
            #expect(a.changes == o.changes)
        }
        // A page that ends in the omitted origin's run, and a page of it alone.
        let firstTwo = try ownStore.history(after: nil, limit: 1, omittingChangesOf: own)
        #expect(firstTwo.transactions.map(\.changes.count) == [0] && firstTwo.hasMore)
        let last = try ownStore.history(after: all.transactions[3].token, limit: nil, omittingChangesOf: other)
        #expect(last.transactions.map(\.changes.count) == [0])
    }
}
