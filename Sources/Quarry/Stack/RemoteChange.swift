import Foundation

/// A commit another process (or another stack on the same file) made to a stack's store,
/// after the stack merged it into its main context, or a failure to follow one: posted as
/// ``PersistentStack/remoteChangeNotification`` on the main queue.
///
/// A change with an ``error`` reports that a read on the remote path failed (the history, a
/// check for commits, the PostgreSQL listener's connection, the objects a commit changed):
/// nothing was merged, unless ``isExternal`` says the visible results were re-fetched instead.
/// The stack keeps it as ``PersistentStack/lastRemoteError``.
public struct RemoteChange: Sendable {
    /// The store file (a PostgreSQL store: its URL, without a password).
    public var storeURL: URL
    /// The history transactions merged (`nil` when none: see ``isExternal``).
    public var tokens: ClosedRange<HistoryToken>?
    /// A write that recorded no history (a program bypassing Quarry, e.g. `sqlite3`), history
    /// pruned behind the stack, or history that could not be read (see ``error``): the visible
    /// results were re-fetched instead of merged.
    public var isExternal: Bool
    /// What failed on the remote path, when this change reports a failure (`nil`: a commit
    /// merged or re-fetched as usual).
    public var error: RemoteChangeError?
    /// A re-fetch for a cause already reported: an outside write an earlier ``isExternal``
    /// change announced (its transaction may be published only after the first re-fetch read
    /// the store, so the results are re-fetched once more), or a failed read repeating the
    /// failure an earlier change's ``error`` reported. Nothing new: a status line that said
    /// "external change", or shows the failure, need not change.
    public var isFollowUp: Bool

    /// A remote change.
    public init(storeURL: URL, tokens: ClosedRange<HistoryToken>?, isExternal: Bool, isFollowUp: Bool = false,
                error: RemoteChangeError? = nil) {
        self.storeURL = storeURL
        self.tokens = tokens
        self.isExternal = isExternal
        self.isFollowUp = isFollowUp
        self.error = error
    }
}
