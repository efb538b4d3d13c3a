import Foundation

/// A SQL store's persistent history, implemented once for every SQL back end over its
/// ``SQLHistoryAccess``: the store supplies only how it reaches its history tables (a reading
/// connection, a write transaction); token reads, fetches, expiry and pruning are the same.
protocol SQLHistoryStore: PersistentHistoryStore {
    /// The back end's access to its history tables on one connection.
    associatedtype HistoryTables: SQLHistoryAccess

    /// Runs `body` on a connection that reads the committed history.
    func readingHistory<T>(_ body: (HistoryTables) throws -> T) throws -> T

    /// Runs `body` (which returns how many transactions it deleted) in one write transaction.
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, before anything runs.
    func pruningHistory(_ body: (HistoryTables) throws -> Int) throws -> Int
}

extension SQLHistoryStore {
    /// The newest token ever handed out to a recorded save (also after pruning deleted every
    /// transaction), or `nil` when no save was recorded.
    public func currentHistoryToken() throws -> HistoryToken? {
        try readingHistory { try $0.currentHistoryToken() }
    }

    /// The transactions after `token`, oldest first, at most `limit` (all for `nil`).
    ///
    /// The result ``HistoryFetchResult/isExpired`` when pruning deleted a transaction newer
    /// than `token` (a `nil` token counts as 0): the caller missed changes. Changes of entities
    /// the model no longer has (removed by a migration) are left out; a tombstone value of an
    /// attribute it no longer has, or that no longer reads as its type, too.
    ///
    /// - Throws: the store's ``StoreError`` when reading fails.
    public func history(after token: HistoryToken?, limit: Int? = nil) throws -> HistoryFetchResult {
        try readingHistory { try $0.fetchHistory(after: token, limit: limit, model: model) }
    }

    /// The transactions after `token` as ``history(after:limit:)`` reads them, the changes of
    /// those `origin` wrote left unread (their `changes` are empty).
    public func history(after token: HistoryToken?, limit: Int?, omittingChangesOf origin: UUID) throws -> HistoryFetchResult {
        try readingHistory { try $0.fetchHistory(after: token, limit: limit, model: model, omittingChangesOf: origin) }
    }

    /// Deletes the transactions before `token` and their changes, in one transaction; returns
    /// how many transactions were deleted. Fetches after a token older than the newest deleted
    /// one report ``HistoryFetchResult/isExpired`` from then on.
    ///
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, or the store's error.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try pruningHistory { try $0.pruneHistory(before: .token(token)) }
    }

    /// Deletes the transactions up to the newest one committed before `date` (tokens and
    /// timestamps rise together; pruning always removes the oldest tokens, so
    /// ``HistoryFetchResult/isExpired`` stays exact); returns how many were deleted.
    ///
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store, or the store's error.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try pruningHistory { try $0.pruneHistory(before: .date(date)) }
    }
}
