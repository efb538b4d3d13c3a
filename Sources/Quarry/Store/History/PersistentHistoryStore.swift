import Foundation

/// A store that records persistent history: every save appends, in its own transaction, one
/// ``HistoryTransaction`` (Core Data's persistent history tracking).
///
/// ```swift
/// let after = stack.lastMergedHistoryToken(consumer: "exporter")
/// let found = try store.history(after: after, limit: 100)
/// for transaction in found.transactions { … }
/// try store.deleteHistory(before: found.transactions.last!.token)   // prune
/// ```
public protocol PersistentHistoryStore: PersistentStore {
    /// Whether saves record history (a store option, fixed when the store was made or upgraded).
    var recordsHistory: Bool { get }

    /// The token of the newest transaction, or `nil` when there is none.
    func currentHistoryToken() throws -> HistoryToken?

    /// The transactions after `token` (all kept ones for `nil`), oldest first, at most `limit`.
    func history(after token: HistoryToken?, limit: Int?) throws -> HistoryFetchResult

    /// Like ``history(after:limit:)``, except that the transactions `origin` wrote come back
    /// without their changes (their `changes` are empty): for a reader that skips its own
    /// stack's saves and need not read what they changed. The default reads everything.
    func history(after token: HistoryToken?, limit: Int?, omittingChangesOf origin: UUID) throws -> HistoryFetchResult

    /// Deletes the transactions before `token` (pruning); returns how many were deleted.
    @discardableResult
    func deleteHistory(before token: HistoryToken) throws -> Int

    /// Deletes the transactions committed before `date`; returns how many were deleted.
    @discardableResult
    func deleteHistory(before date: Date) throws -> Int

    /// The last history token `consumer` merged as kept in the store
    /// (``PersistentStack/setLastMergedHistoryToken(_:consumer:)``), `nil` when none is kept.
    /// A store that keeps no consumer tokens returns `nil` (the default).
    func historyConsumerToken(_ consumer: String) throws -> HistoryToken?

    /// Keeps `token` as the last one `consumer` merged (`nil` forgets it) so another stack on
    /// the store reads it; called only on a writable store. The default keeps nothing (the
    /// stack then remembers the token only in memory).
    func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws

    /// The authors of the kept transactions whose author starts with `prefix`, oldest first
    /// (an import's marks: see ``ImportOperation``). The default reads the history a page at a time.
    func historyAuthors(withPrefix prefix: String) throws -> [String]
}

extension PersistentHistoryStore {
    /// Reads every transaction's changes, `origin`'s too (``history(after:limit:)``).
    public func history(after token: HistoryToken?, limit: Int?, omittingChangesOf origin: UUID) throws -> HistoryFetchResult {
        try history(after: token, limit: limit)
    }

    /// Keeps no consumer tokens: `nil`.
    public func historyConsumerToken(_ consumer: String) throws -> HistoryToken? { nil }

    /// Keeps no consumer tokens: does nothing.
    public func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {}

    /// Reads the history a page at a time for the authors that start with `prefix`.
    public func historyAuthors(withPrefix prefix: String) throws -> [String] {
        guard recordsHistory else { return [] }
        var authors: [String] = []
        var after: HistoryToken?
        while true {
            let page = try history(after: after, limit: 1_000)
            authors += page.transactions.compactMap(\.author).filter { $0.hasPrefix(prefix) }
            guard let last = page.transactions.last, page.transactions.count == 1_000 else { return authors }
            after = last.token
        }
    }
}
