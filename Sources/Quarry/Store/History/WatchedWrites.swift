/// What a store watcher saw written between two changes it reported (see
/// ``RemoteHistoryReader/nextCommit(_:)``).
struct WatchedWrites: Sendable {
    /// The store's `-wal` or `-journal` was written: a change with no history behind it was a
    /// commit (for a store that records no history, an outside write), not a checkpoint alone.
    var log = false
    /// The store's `-journal` was written: a rollback-journal writer committed, whose
    /// transactions no ``WriteAheadLogCursor`` reads. A change history does not explain then
    /// counts as an outside write once the watcher goes quiet. Commits to the `-wal` need no such
    /// guess: the cursor reads each one, and a change history does not explain after them (a
    /// commit whose history the last read already took, a checkpoint, a writer restarting the
    /// log) is nothing new.
    var unreadLog = false
    /// Whether a transaction that was not a Quarry save was committed to the `-wal` (or the
    /// ``WriteAheadLogCursor`` lost track of the log). Asked once the history is read: the
    /// watcher's scan of the log runs beside that read (it takes as long, about a millisecond
    /// per thousand frames), and this waits for it.
    var outsideFound: @Sendable () -> Bool = { false }

    /// What a caller with no watcher assumes: the log written, by writers no cursor follows.
    static let unknown = WatchedWrites(log: true, unreadLog: true)
}
