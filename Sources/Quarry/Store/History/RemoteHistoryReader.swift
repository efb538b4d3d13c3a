import Foundation

/// Reads a store's history after the last transaction a stack merged, and keeps that token.
///
/// Not thread-safe by itself: its owner calls it on one serial queue (the change feed's: the
/// SQLite store watcher's or the PostgreSQL listener's), so each transaction is read once, in
/// order, and the token only moves forward: never missed, never applied twice.
final class RemoteHistoryReader: @unchecked Sendable {
    // `lastToken`, `unexplained` and `externalOwed` are confined to the owning change feed's
    // queue ("Quarry.StoreWatcher <file>" or "Quarry.PostgreSQLListener <url>").
    /// The store read (the stack's main coordinator's).
    let store: PersistentStore
    /// `store`'s history, `nil` when it records none: found once, when the reader is made
    /// (whether a store records history is fixed when it is opened).
    private let history: (any PersistentHistoryStore)?
    /// How failures name the store: its path, or its URL (a PostgreSQL URL has no password).
    let storeName: String
    /// The stack's history origin: its transactions are skipped.
    let origin: UUID
    /// The newest transaction read (`nil`: none was in the store when it was opened).
    private(set) var lastToken: HistoryToken?
    /// `data_version` moved after a `-journal` write that no history explains yet: an outside
    /// write, unless a commit with history follows before the watcher goes quiet.
    private var unexplained = false
    /// Re-fetches still owed for a write by another program: it is reported with the
    /// `data_version` change that follows the transaction, which may come before the
    /// transaction is published, so the next change (or the watcher going quiet) re-fetches again.
    private var externalOwed = 0

    /// A reader starting at the store's newest transaction (everything before it is what the
    /// stack will fetch).
    init(store: PersistentStore, origin: UUID) throws {
        self.store = store
        self.origin = origin
        self.storeName = store.url.map { $0.isFileURL ? $0.path : $0.absoluteString } ?? "the in-memory store"
        let history = (store as? any PersistentHistoryStore).flatMap { $0.recordsHistory ? $0 : nil }
        self.history = history
        lastToken = try history?.currentHistoryToken()
    }

    /// What the commit(s) since the last call changed, given what the watcher saw written since
    /// (``WatchedWrites``; a caller without one passes nothing and assumes the worst).
    ///
    /// A transaction that was not a Quarry save (`writes.outsideFound()`): whatever history
    /// says, what it changed is unknown, so the answer is ``RemoteCommit/external`` (history
    /// read meanwhile is covered by the re-fetch, and a failed read of it does not count), and
    /// the next one's is ``RemoteCommit/externalFollowUp``. No log written (`writes.log`
    /// false): a change history does not explain was a checkpoint's. Only a rollback journal
    /// written (`writes.unreadLog`) leaves a change history does not explain to ``settle()``.
    /// - Throws: ``RemoteChangeError/historyUnreadable(store:reason:)`` when the history cannot
    ///   be read, ``RemoteChangeError/objectsUnreadable(store:reason:)`` when the objects it
    ///   names cannot; the token has not moved then, so a later call reads the same transactions.
    func nextCommit(_ writes: WatchedWrites = .unknown) throws(RemoteChangeError) -> RemoteCommit {
        guard let history else { return writes.log ? .external : .none }
        // Read while a scan of the log may still run (see `WatchedWrites.outsideFound`); only
        // then ask whether it found an outside write, which makes the read moot.
        var read: Result<HistoryRead, RemoteChangeError>?
        if externalOwed == 0 {
            do throws(RemoteChangeError) {
                read = .success(try readHistory(history))
            } catch {
                read = .failure(error)
            }
        }
        if writes.outsideFound() { externalOwed = 2 }
        if externalOwed > 0 {
            // The first of the two re-fetches reports the write; the second follows it up.
            let first = externalOwed == 2
            externalOwed -= 1
            unexplained = false
            lastToken = try readingHistory { try history.currentHistoryToken() }
            return first ? .external : .externalFollowUp
        }
        guard let read else { preconditionFailure("the history is read unless an outside write is owed a re-fetch") }
        switch try read.get() {
        case .expired:
            unexplained = false
            // Pruned behind us: what was missed is unknown. Start again from now.
            lastToken = try readingHistory { try history.currentHistoryToken() }
            return .external
        case .nothing:
            if writes.unreadLog { unexplained = true }
            return .none
        case .ownOnly(let newest):
            unexplained = false
            lastToken = newest
            return .ownOnly
        case .others(let changes, let tokens, let newest):
            unexplained = false
            lastToken = newest
            return .merge(changes, tokens: tokens)
        }
    }

    /// What one read of the history after ``lastToken`` found.
    private enum HistoryRead {
        /// Pruned behind the reader.
        case expired
        /// No transaction.
        case nothing
        /// Only the stack's own transactions, the newest `newest`.
        case ownOnly(newest: HistoryToken)
        /// Other writers' `changes` in transactions `tokens` (the newest transaction read, maybe
        /// the stack's own, is `newest`).
        case others(SaveChanges, tokens: ClosedRange<HistoryToken>, newest: HistoryToken)
    }

    /// Reads the transactions after ``lastToken`` and the objects other writers changed in
    /// them, moving nothing: the caller decides whether the read counts.
    private func readHistory(_ history: any PersistentHistoryStore) throws(RemoteChangeError) -> HistoryRead {
        // The stack's own saves are skipped: what they changed is not read.
        let found = try readingHistory { try history.history(after: lastToken, limit: nil, omittingChangesOf: origin) }
        if found.isExpired { return .expired }
        guard let newest = found.transactions.last else { return .nothing }
        let others = found.transactions.filter { $0.origin != origin }
        guard let first = others.first, let last = others.last else { return .ownOnly(newest: newest.token) }
        do {
            let changes = try HistoryChangeSet(others).saveChanges(reading: store)
            return .others(changes, tokens: first.token...last.token, newest: newest.token)
        } catch {
            throw RemoteChangeError.objectsUnreadable(store: storeName, reason: "\(error)")
        }
    }

    /// `read`'s value; its failure as ``RemoteChangeError/historyUnreadable(store:reason:)``.
    private func readingHistory<T>(_ read: () throws -> T) throws(RemoteChangeError) -> T {
        do {
            return try read()
        } catch {
            throw RemoteChangeError.historyUnreadable(store: storeName, reason: "\(error)")
        }
    }

    /// Called when the watcher found no further change: a change no history explained is an
    /// outside write (re-fetch); a re-fetch still owed to one already reported is made as its
    /// follow-up.
    func settle() -> RemoteCommit {
        defer { unexplained = false; externalOwed = 0 }
        if unexplained { return .external }
        return externalOwed > 0 ? .externalFollowUp : .none
    }
}
