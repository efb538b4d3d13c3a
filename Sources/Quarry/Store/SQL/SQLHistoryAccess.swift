import Foundation

/// How the shared history code (``SQLHistoryAccess/fetchHistory(after:limit:model:)``,
/// ``SQLHistoryAccess/pruneHistory(before:)``, consumer tokens) reaches a SQL store's history
/// tables (`Z_HISTORYTRANSACTION`, `Z_HISTORYCHANGE`) and `Z_METADATA` on one connection, in
/// the caller's transaction. Each back end supplies only the SQL text and connection access;
/// the shared code is generic over the conforming type.
protocol SQLHistoryAccess {
    /// Whether the store has history tables (a store made before history has none).
    func hasHistoryTables() throws -> Bool
    /// The newest token ever handed out (also after pruning deleted it), `nil` when none was.
    func newestHandedOutToken() throws -> Int64?
    /// Calls `body` with each transaction row after token `after`, by token, at most `limit`.
    func forEachTransaction(after: Int64, limit: Int?, _ body: (HistoryTransactionRow) throws -> Void) throws
    /// Calls `body` with each change row of tokens `first` through `last`, by token and position.
    func forEachChange(from first: Int64, through last: Int64, _ body: (_ token: Int64, _ row: HistoryChangeRow) throws -> Void) throws
    /// The newest transaction's token below `bound`, `nil` when there is none.
    func newestToken(below bound: Int64) throws -> Int64?
    /// The newest token of a transaction committed before `date`, `nil` when there is none.
    func newestToken(committedBefore date: Date) throws -> Int64?
    /// Deletes the transactions below token `bound` and their changes; returns how many
    /// transactions went.
    func deleteTransactions(below bound: Int64) throws -> Int
    /// Raises `history.prunedThrough` to `token` (never lowers it).
    func advancePrunedThrough(to token: Int64) throws
    /// The value of `Z_METADATA` row `key`, `nil` when there is none.
    func metadataValue(_ key: String) throws -> String?
    /// Sets (`nil`: removes) the `Z_METADATA` row `key`.
    func setMetadataValue(_ value: String?, key: String) throws
}

/// Where a prune stops: below a token, or before a commit date.
enum HistoryPruneBound {
    /// The transactions before this token go.
    case token(HistoryToken)
    /// The transactions committed before this date go.
    case date(Date)
}

extension SQLHistoryAccess {
    /// The newest token handed out, `nil` when no save was recorded (see
    /// ``PersistentHistoryStore/currentHistoryToken()``).
    func currentHistoryToken() throws -> HistoryToken? {
        guard try hasHistoryTables() else { return nil }
        return try newestHandedOutToken().flatMap { $0 > 0 ? HistoryToken($0) : nil }
    }

    /// The transactions after `token`, oldest first, at most `limit` (all for `nil`), with
    /// their changes (see ``PersistentHistoryStore/history(after:limit:)``).
    ///
    /// The result ``HistoryFetchResult/isExpired`` when pruning deleted a transaction newer
    /// than `token` (a `nil` token counts as 0). Changes of entities `model` no longer has are
    /// left out; a tombstone value of an attribute it no longer has, or that no longer reads
    /// as its type, too.
    ///
    /// With `omitted`, the changes of the transactions that origin wrote are not read (they
    /// come back with none): only the runs of consecutive tokens other writers committed are.
    func fetchHistory(after token: HistoryToken?, limit: Int?, model: ManagedObjectModel,
                      omittingChangesOf omitted: UUID? = nil) throws -> HistoryFetchResult {
        guard try hasHistoryTables() else { return HistoryFetchResult(transactions: []) }
        let after = token?.value ?? 0
        let prunedThrough = try metadataValue(MetadataKey.historyPrunedThrough).flatMap { Int64($0) } ?? 0
        var transactions: [HistoryTransaction] = []
        // One more than asked for tells whether there are more.
        try forEachTransaction(after: after, limit: limit.map { max(0, $0) + 1 }) { transactions.append($0.transaction) }
        let hasMore = limit.map { transactions.count > $0 } ?? false
        if hasMore { transactions.removeLast() }
        var position: [Int64: Int] = [:]
        for (i, t) in transactions.enumerated() { position[t.token.value] = i }
        // Each run of consecutive transactions whose changes are wanted, read in one pass.
        var runStart: Int?
        var keyLists: [String: [String]] = [:]
        for i in 0...transactions.count {
            let wanted = i < transactions.count && (omitted == nil || transactions[i].origin != omitted)
            if wanted, runStart == nil { runStart = i }
            guard !wanted, let start = runStart else { continue }
            runStart = nil
            try forEachChange(from: transactions[start].token.value, through: transactions[i - 1].token.value) { token, row in
                guard let j = position[token] else { return }
                row.appendChanges(to: &transactions[j].changes, model: model, keyLists: &keyLists)
            }
        }
        return HistoryFetchResult(transactions: transactions, isExpired: prunedThrough > after, hasMore: hasMore)
    }

    /// Deletes the transactions before `bound` and their changes, and advances
    /// `history.prunedThrough` (so fetches after an older token report
    /// ``HistoryFetchResult/isExpired``); returns how many transactions were deleted. Tokens
    /// and timestamps rise together, so pruning by date also removes the oldest tokens.
    func pruneHistory(before bound: HistoryPruneBound) throws -> Int {
        guard try hasHistoryTables() else { return 0 }
        let below: Int64
        switch bound {
        case .token(let token): below = token.value
        case .date(let date): below = try newestToken(committedBefore: date).map { $0 + 1 } ?? 0
        }
        guard let newest = try newestToken(below: below) else { return 0 }
        let deleted = try deleteTransactions(below: below)
        try advancePrunedThrough(to: newest)
        return deleted
    }

    /// The token `consumer` last merged (`history.consumer.<name>` in `Z_METADATA`), `nil`
    /// when none is stored.
    func historyConsumerToken(_ consumer: String) throws -> HistoryToken? {
        try metadataValue(MetadataKey.historyConsumerPrefix + consumer).flatMap { Int64($0) }.map(HistoryToken.init)
    }

    /// Stores (`nil`: removes) the token `consumer` last merged.
    func setHistoryConsumerToken(_ token: HistoryToken?, consumer: String) throws {
        try setMetadataValue(token.map { String($0.value) }, key: MetadataKey.historyConsumerPrefix + consumer)
    }
}
