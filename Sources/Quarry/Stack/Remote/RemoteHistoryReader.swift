import Foundation

/// What a commit noticed by a ``StoreWatcher`` means for a stack.
enum RemoteCommit: Sendable {
    /// Other writers' history transactions `tokens`, as one did-save change set.
    case merge(SaveChanges, tokens: ClosedRange<HistoryToken>)
    /// The store changed in a way history does not describe (a writer that bypassed Quarry,
    /// history pruned behind the reader, or a store that records no history): re-fetch.
    case external
    /// Only this stack's own transactions: already merged in process.
    case ownOnly
    /// Nothing to merge yet (`data_version` moved for a checkpoint, or for a writer that
    /// restarted the `-wal` and has not committed yet).
    case none
}

/// Reads a store's history after the last transaction a stack merged, and keeps that token.
///
/// Not thread-safe by itself: its owner calls it on one serial queue (the stack's
/// ``StoreWatcher`` or `PostgreSQLListener` queue), so each transaction is read once, in order, and the token only
/// moves forward: never missed, never applied twice.
final class RemoteHistoryReader: @unchecked Sendable {
    // `lastToken` and `unexplained` are confined to the owning stack's `StoreWatcher` queue
    // ("Quarry.StoreWatcher <file>") or `PostgreSQLListener` queue ("Quarry.PostgreSQLListener <url>").
    /// The store read (the stack's main coordinator's).
    let store: PersistentStore
    /// The stack's history origin: its transactions are skipped.
    let origin: UUID
    /// The newest transaction read (`nil`: none was in the store when it was opened).
    private(set) var lastToken: HistoryToken?
    /// `data_version` moved after a `-wal` write that no history explains yet: an outside
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
        if let history = store as? PersistentHistoryStore, history.recordsHistory {
            lastToken = try history.currentHistoryToken()
        }
    }

    /// What the commit(s) since the last call changed. `logWritten`: whether the store's `-wal`
    /// or `-journal` was written since (else a change history does not explain was a
    /// checkpoint's, not an outside write).
    ///
    /// `outsideWrite`: a transaction that was not a Quarry save was committed since (see
    /// ``WriteAheadLogCursor``): whatever history says, what it changed is unknown, so the
    /// answer is ``RemoteCommit/external`` (history read meanwhile is covered by the re-fetch),
    /// and so is the next one's.
    func nextCommit(logWritten: Bool = true, outsideWrite: Bool = false) throws -> RemoteCommit {
        guard let history = store as? PersistentHistoryStore, history.recordsHistory else { return logWritten ? .external : .none }
        if outsideWrite { externalOwed = 2 }
        if externalOwed > 0 {
            externalOwed -= 1
            unexplained = false
            lastToken = try history.currentHistoryToken()
            return .external
        }
        let found = try history.history(after: lastToken, limit: nil)
        if found.isExpired {
            unexplained = false
            // Pruned behind us: what was missed is unknown. Start again from now.
            lastToken = try history.currentHistoryToken()
            return .external
        }
        guard let newest = found.transactions.last else {
            if logWritten { unexplained = true }
            return .none
        }
        unexplained = false
        lastToken = newest.token
        let others = found.transactions.filter { $0.origin != origin }
        guard let first = others.first, let last = others.last else { return .ownOnly }
        let changes = try HistoryChangeSet(others).saveChanges(reading: store)
        return .merge(changes, tokens: first.token...last.token)
    }

    /// Called when the watcher found no further change: a change no history explained is an
    /// outside write (re-fetch).
    func settle() -> RemoteCommit {
        defer { unexplained = false; externalOwed = 0 }
        return unexplained || externalOwed > 0 ? .external : .none
    }
}
