import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// An in-memory store with a history the test writes by hand (pruning included).
final class HandWrittenHistoryStore: PersistentHistoryStore {
    let inner: InMemoryStore
    private let log = Mutex<(transactions: [HistoryTransaction], prunedBefore: HistoryToken?)>(([], nil))
    /// Set: every history read fails (a table made unreadable).
    let failsHistoryReads = Mutex(false)
    /// How many times the history was read.
    let historyReads = Mutex(0)

    init(model: ManagedObjectModel) { inner = InMemoryStore(model: model) }

    func append(_ transaction: HistoryTransaction) { log.withLock { $0.transactions.append(transaction) } }

    var identifier: UUID { inner.identifier }
    var model: ManagedObjectModel { inner.model }
    var url: URL? { nil }
    var isReadOnly: Bool { false }
    var recordsHistory: Bool { true }
    func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try inner.snapshots(for: ids) }
    func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] { try inner.relatedIDs(of: id, relationship: relationship) }
    func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try inner.objectIDs(for: request) }
    func count(for request: StoreQuery) throws -> Int { try inner.count(for: request) }
    func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] { try inner.keyedIDs(for: request, keyPaths: keyPaths) }
    func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult { try inner.save(changes, resolve: resolve) }
    func currentHistoryToken() throws -> HistoryToken? { log.withLock { $0.transactions.last?.token } }
    func history(after token: HistoryToken?, limit: Int?) throws -> HistoryFetchResult {
        historyReads.withLock { $0 += 1 }
        if failsHistoryReads.withLock({ $0 }) { throw StoreError.cannotOpen(path: "history", reason: "made unreadable by the test") }
        return log.withLock { l in
            let expired = l.prunedBefore.map { pruned in (token ?? HistoryToken(0)) < HistoryToken(pruned.value - 1) } ?? false
            return HistoryFetchResult(transactions: l.transactions.filter { token == nil || $0.token > token! }, isExpired: expired)
        }
    }
    func deleteHistory(before token: HistoryToken) throws -> Int {
        log.withLock { l in
            let before = l.transactions.count
            l.transactions.removeAll { $0.token < token }
            l.prunedBefore = token
            return before - l.transactions.count
        }
    }
    func deleteHistory(before date: Date) throws -> Int { 0 }
}

@Suite("Remote history reader: token bookkeeping")
struct RemoteHistoryReaderTests {
    let own = UUID()
    let other = UUID()

    /// A store with `count` tickers saved (no history yet), and their IDs.
    func makeStore(tickers count: Int) throws -> (HandWrittenHistoryStore, [ObjectID]) {
        let store = HandWrittenHistoryStore(model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        let ids = try context.performAndWait {
            let tickers = try (0..<count).map { i -> ManagedObject in
                let t = try context.insertObject(entityName: "Ticker"); try t.setValue(.string("T\(i)"), forKey: "symbol"); return t
            }
            try context.save()
            return tickers.map(\.objectID)
        }
        return (store, ids)
    }

    func transaction(_ token: Int64, origin: UUID, _ changes: [HistoryChange]) -> HistoryTransaction {
        HistoryTransaction(token: HistoryToken(token), timestamp: Date(), author: "test", origin: origin, processID: 1, changes: changes)
    }

    @Test("starts after the store's newest transaction, merges each later one once, in one change set with current values")
    func readsEachTransactionOnce() throws {
        let (store, ids) = try makeStore(tickers: 3)
        store.append(transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .insert)]))
        let reader = try RemoteHistoryReader(store: store, origin: own)
        #expect(reader.lastToken == HistoryToken(1))
        store.append(transaction(2, origin: other, [HistoryChange(objectID: ids[1], type: .insert)]))
        store.append(transaction(3, origin: other, [HistoryChange(objectID: ids[2], type: .update, changedKeys: ["price"])]))
        guard case .merge(let changes, let tokens) = try reader.nextCommit() else { Issue.record("expected a merge"); return }
        #expect(tokens == HistoryToken(2)...HistoryToken(3))
        #expect(changes.inserted == [ids[1]] && changes.updated == [ids[2]])
        #expect(changes.carriesSnapshots, "current values read for the controllers to decide without faulting")
        #expect(changes.changedKeys[ids[2]] == ["price"])
        #expect(reader.lastToken == HistoryToken(3))
        // Nothing new: a second notice of the same commit applies nothing twice; once the
        // watcher goes quiet, a change no history explained is an outside write.
        #expect(try reader.nextCommit().isNoneForTest)
        #expect(reader.settle().isExternalForTest)
        #expect(reader.settle().isNoneForTest, "settled once")
    }

    @Test("its own stack's transactions are skipped, but the token moves past them")
    func skipsOwnTransactions() throws {
        let (store, ids) = try makeStore(tickers: 2)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        store.append(transaction(1, origin: own, [HistoryChange(objectID: ids[0], type: .insert)]))
        guard case .ownOnly = try reader.nextCommit() else { Issue.record("expected only own transactions"); return }
        store.append(transaction(2, origin: own, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["name"])]))
        store.append(transaction(3, origin: other, [HistoryChange(objectID: ids[1], type: .insert)]))
        guard case .merge(let changes, let tokens) = try reader.nextCommit() else { Issue.record("expected a merge"); return }
        #expect(tokens == HistoryToken(3)...HistoryToken(3))
        #expect(changes.inserted == [ids[1]] && changes.updated.isEmpty)
    }

    @Test("history pruned behind the reader is external (re-fetch), and reading resumes from the newest token")
    func expiredHistory() throws {
        let (store, ids) = try makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        for token in 1...5 { store.append(transaction(Int64(token), origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])])) }
        try store.deleteHistory(before: HistoryToken(4))
        #expect(try reader.nextCommit().isExternalForTest)
        #expect(reader.lastToken == HistoryToken(5))
        store.append(transaction(6, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        guard case .merge(_, let tokens) = try reader.nextCommit() else { Issue.record("expected a merge"); return }
        #expect(tokens == HistoryToken(6)...HistoryToken(6))
    }

    @Test("an object deleted by a commit after the ones read is announced as deleted, not merged stale")
    func vanishedObjectIsDeleted() throws {
        let (store, ids) = try makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        store.append(transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"]),
                                                    HistoryChange(objectID: ObjectID(entityIndex: ids[0].entityIndex.asInt, primaryKey: 999), type: .insert)]))
        guard case .merge(let changes, _) = try reader.nextCommit() else { Issue.record("expected a merge"); return }
        #expect(changes.updated == [ids[0]])
        #expect(changes.deleted == [ObjectID(entityIndex: ids[0].entityIndex.asInt, primaryKey: 999)])
    }

    @Test("a data_version change history explains before the watcher goes quiet (a writer restarting the -wal) is not external")
    func walRestartBeforeCommitIsNotExternal() throws {
        let (store, ids) = try makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        #expect(try reader.nextCommit(.unknown).isNoneForTest, "the -wal restarted, nothing committed yet")
        store.append(transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        guard case .merge = try reader.nextCommit(.unknown) else { Issue.record("expected a merge"); return }
        #expect(reader.settle().isNoneForTest)
    }

    @Test("a data_version change with no log written (a checkpoint) is never external")
    func checkpointIsNotExternal() throws {
        let (store, _) = try makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        #expect(try reader.nextCommit(WatchedWrites()).isNoneForTest)
        #expect(reader.settle().isNoneForTest)
    }

    @Test("a data_version change after -wal writes whose history the last read already took is not external")
    func commitReadAheadIsNotExternal() throws {
        let (store, ids) = try makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        // The watcher read data_version before the second commit, history after it: the read
        // takes both, and the second commit's data_version change finds nothing new.
        store.append(transaction(1, origin: own, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        store.append(transaction(2, origin: own, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        guard case .ownOnly = try reader.nextCommit(WatchedWrites(log: true)) else { Issue.record("expected own transactions"); return }
        #expect(try reader.nextCommit(WatchedWrites(log: true)).isNoneForTest)
        #expect(reader.settle().isNoneForTest, "every -wal commit is read by the watcher's cursor: none was another program's")
        // The same change after a rollback journal was written is a guess only settling decides.
        #expect(try reader.nextCommit(WatchedWrites(log: true, unreadLog: true)).isNoneForTest)
        #expect(reader.settle().isExternalForTest)
    }
}

@Suite("Remote history reader: the log scan's answer, read beside the history")
struct RemoteHistoryReaderLogScanTests {
    let own = UUID()
    let other = UUID()
    let base = RemoteHistoryReaderTests()

    @Test("the history is read before the scan's answer is awaited, and a scan that found nothing leaves the merge")
    func historyReadFirst() throws {
        let (store, ids) = try base.makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        store.append(base.transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        let readsWhenAsked = Mutex<Int?>(nil)
        let before = store.historyReads.withLock { $0 }
        let writes = WatchedWrites(log: true, outsideFound: {
            readsWhenAsked.withLock { $0 = store.historyReads.withLock { $0 } }
            return false
        })
        guard case .merge(let changes, _) = try reader.nextCommit(writes) else { Issue.record("expected a merge"); return }
        #expect(changes.updated == [ids[0]])
        #expect(readsWhenAsked.withLock { $0 } == before + 1, "the scan runs beside the history read, asked only after it")
    }

    @Test("an outside write the scan finds makes the change and the next one external, whatever history said")
    func scanFindsOutsideWrite() throws {
        let (store, ids) = try base.makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        store.append(base.transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        #expect(try reader.nextCommit(WatchedWrites(log: true, outsideFound: { true })).isExternalForTest)
        #expect(reader.lastToken == HistoryToken(1), "the re-fetch covers the history read meanwhile")
        // The outside transaction may be published only with the next data_version change.
        #expect(try reader.nextCommit(WatchedWrites(log: true)).isExternalFollowUpForTest, "the same write's second re-fetch")
        store.append(base.transaction(2, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        guard case .merge(_, let tokens) = try reader.nextCommit(WatchedWrites(log: true, outsideFound: { false })) else {
            Issue.record("expected a merge"); return
        }
        #expect(tokens == HistoryToken(2)...HistoryToken(2))
    }

    @Test("a history read that fails does not count when the scan found an outside write: the answer is a re-fetch")
    func failedReadBesideOutsideWrite() throws {
        let (store, ids) = try base.makeStore(tickers: 1)
        let reader = try RemoteHistoryReader(store: store, origin: own)
        store.append(base.transaction(1, origin: other, [HistoryChange(objectID: ids[0], type: .update, changedKeys: ["price"])]))
        store.failsHistoryReads.withLock { $0 = true }
        #expect(throws: RemoteChangeError.self) { try reader.nextCommit(WatchedWrites(log: true, outsideFound: { false })) }
        // `currentHistoryToken` still answers: only the history read fails.
        #expect(try reader.nextCommit(WatchedWrites(log: true, outsideFound: { true })).isExternalForTest)
    }
}

extension RemoteCommit {
    var isExternalForTest: Bool { if case .external = self { return true } else { return false } }
    var isNoneForTest: Bool { if case .none = self { return true } else { return false } }
    var isExternalFollowUpForTest: Bool { if case .externalFollowUp = self { return true } else { return false } }
}

extension Int32 {
    var asInt: Int { Int(self) }
}
