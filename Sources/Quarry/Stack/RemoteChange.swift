import Foundation

/// A commit another process (or another stack on the same file) made to a stack's store,
/// after the stack merged it into its main context: posted as
/// ``PersistentStack/remoteChangeNotification`` on the main queue.
public struct RemoteChange: Sendable {
    /// The store file (a PostgreSQL store: its URL, without a password).
    public var storeURL: URL
    /// The history transactions merged (`nil` when none: see ``isExternal``).
    public var tokens: ClosedRange<HistoryToken>?
    /// A write that recorded no history (a program bypassing Quarry, e.g. `sqlite3`), or history
    /// pruned behind the stack: the visible results were re-fetched instead of merged.
    public var isExternal: Bool

    /// A remote change.
    public init(storeURL: URL, tokens: ClosedRange<HistoryToken>?, isExternal: Bool) {
        self.storeURL = storeURL
        self.tokens = tokens
        self.isExternal = isExternal
    }
}
