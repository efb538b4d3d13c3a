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
    /// The cursor read a transaction that was not a Quarry save (or lost track of the log).
    var outside = false
    /// The same answer from a read of the log still running beside the history read (it takes
    /// as long, about a millisecond per thousand frames): called once the history is read,
    /// it waits for the scan. `nil`: `outside` is the whole answer.
    var outsideWhenScanned: (@Sendable () -> Bool)?

    /// Whether a transaction that was not a Quarry save was committed (waits for a scan still running).
    func outsideFound() -> Bool { outside || outsideWhenScanned?() == true }

    /// What a caller with no watcher assumes: the log written, by writers no cursor follows.
    static let unknown = WatchedWrites(log: true, unreadLog: true)

    init(log: Bool = false, unreadLog: Bool = false, outside: Bool = false, outsideWhenScanned: (@Sendable () -> Bool)? = nil) {
        self.log = log
        self.unreadLog = unreadLog
        self.outside = outside
        self.outsideWhenScanned = outsideWhenScanned
    }
}
