import Foundation

extension PersistentStack {
    /// The store's persistent history, when it records one (`nil` for in-memory, JSON and
    /// foreign stores, and for a SQLite store made with history off).
    public var historyStore: (any PersistentHistoryStore)? {
        guard let store = writerCoordinator.store as? any PersistentHistoryStore, store.recordsHistory else { return nil }
        return store
    }

    /// The origin this stack's saves write with their history transactions: a stack merging
    /// history skips transactions of its own origin (it merged them in process already).
    public var historyOrigin: UUID? { state.withLock { $0.backEnd.historyOrigin } }

    /// The last history token `consumer` merged (``setLastMergedHistoryToken(_:consumer:)``),
    /// `nil` when it never set one. Kept in the store's metadata (`history.consumer.<name>`:
    /// SQLite's `Z_METADATA`, PostgreSQL's `"Z_METADATA"`) when the store is writable, so it
    /// survives a restart and other stacks on the store read it; in memory otherwise (a
    /// read-only stack starts from what the store has).
    /// - Throws: ``StoreError`` when the store's metadata cannot be read.
    public func lastMergedHistoryToken(consumer: String) throws -> HistoryToken? {
        if let set = historyConsumers.withLock({ $0[consumer] }) { return set }
        guard let store = writerCoordinator.store as? any PersistentHistoryStore else { return nil }
        return try store.historyConsumerToken(consumer)
    }

    /// Records that `consumer` merged history through `token` (`nil` forgets it).
    /// - Throws: ``StoreError`` when the store cannot be written (the token is still kept in
    ///   memory for this stack).
    public func setLastMergedHistoryToken(_ token: HistoryToken?, consumer: String) throws {
        historyConsumers.withLock { $0[consumer] = .some(token) }
        if let store = writerCoordinator.store as? any PersistentHistoryStore, !store.isReadOnly {
            try store.setHistoryConsumerToken(token, consumer: consumer)
        }
    }
}
