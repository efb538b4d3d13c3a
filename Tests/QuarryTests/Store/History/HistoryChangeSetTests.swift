import Foundation
import Testing
@testable import Quarry

@Suite("History change set: the net effect of several transactions")
struct HistoryChangeSetTests {
    let a = ObjectID(entityIndex: 1, primaryKey: 1)
    let b = ObjectID(entityIndex: 1, primaryKey: 2)
    let c = ObjectID(entityIndex: 1, primaryKey: 3)

    func transaction(_ token: Int64, _ changes: [HistoryChange]) -> HistoryTransaction {
        HistoryTransaction(token: HistoryToken(token), timestamp: Date(), author: nil, origin: UUID(), processID: 1, changes: changes)
    }

    @Test("inserted then updated is an insert; updated twice unions the keys; deleted after anything is a delete")
    func netEffect() {
        let set = HistoryChangeSet([
            transaction(1, [HistoryChange(objectID: a, type: .insert), HistoryChange(objectID: b, type: .update, changedKeys: ["price"])]),
            transaction(2, [HistoryChange(objectID: a, type: .update, changedKeys: ["name"]), HistoryChange(objectID: b, type: .update, changedKeys: ["volume"]),
                            HistoryChange(objectID: c, type: .update, changedKeys: ["price"])]),
            transaction(3, [HistoryChange(objectID: c, type: .delete)]),
        ])
        #expect(set.inserted == [a])
        #expect(set.updated == [b])
        #expect(set.deleted == [c])
        #expect(set.changedKeys == [b: ["price", "volume"]])
    }

    @Test("an update with no recorded keys makes the object's keys unknown (none is ruled out)")
    func unknownKeys() {
        let set = HistoryChangeSet([
            transaction(1, [HistoryChange(objectID: a, type: .update, changedKeys: ["price"])]),
            transaction(2, [HistoryChange(objectID: a, type: .update)]),
        ])
        #expect(set.updated == [a])
        #expect(set.changedKeys[a] == nil)
    }
}
