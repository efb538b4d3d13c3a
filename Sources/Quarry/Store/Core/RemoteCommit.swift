/// What a store's change feed read after other connections committed to the store: what it
/// means for a stack (see ``ChangeFeed``).
enum RemoteCommit: Sendable {
    /// Other writers' history transactions `tokens`, as one did-save change set.
    case merge(SaveChanges, tokens: ClosedRange<HistoryToken>)
    /// The store changed in a way history does not describe (a writer that bypassed Quarry,
    /// history pruned behind the reader, or a store that records no history): re-fetch.
    case external
    /// Re-fetch again, for a cause already reported: the second re-fetch owed to an outside
    /// write ``external`` reported (its transaction may be published only with the next
    /// `data_version` change), or the re-fetch a failed read asks for while the same failure
    /// stands (``failed(_:refetch:)`` reported it).
    case externalFollowUp
    /// Only this stack's own transactions: already merged in process.
    case ownOnly
    /// Nothing to merge yet (`data_version` moved for a checkpoint, or for a writer that
    /// restarted the `-wal` and has not committed yet).
    case none
    /// A read on the remote path failed (`error` says which, and why). `refetch`: what changed
    /// is unknown, so the visible results are re-fetched as for ``external``.
    case failed(RemoteChangeError, refetch: Bool)
    /// A read succeeded after a failure: the feed follows the store again.
    case recovered
}
