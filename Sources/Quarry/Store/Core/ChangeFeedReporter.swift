/// Hands what a change feed read to its stack, in order, so that no failure passes silently
/// and none is repeated: a failure is reported once per run of equal failures, and
/// ``RemoteCommit/recovered`` follows the first read that succeeds after one.
///
/// Not thread-safe by itself: its feed calls it on the feed's serial queue only.
final class ChangeFeedReporter: @unchecked Sendable {
    // `failing` is confined to the owning feed's serial queue (the SQLite watcher's
    // "Quarry.StoreWatcher <file>" or the PostgreSQL listener's "Quarry.PostgreSQLListener <url>").
    private let deliver: @Sendable (RemoteCommit) -> Void
    /// The failure reported last, until a read succeeds.
    private var failing: RemoteChangeError?

    /// A reporter handing everything to `deliver`.
    init(deliver: @escaping @Sendable (RemoteCommit) -> Void) {
        self.deliver = deliver
    }

    /// A read that succeeded with `commit`: ends a run of failures, then hands `commit` over.
    func read(_ commit: RemoteCommit) {
        if failing != nil {
            failing = nil
            deliver(.recovered)
        }
        pass(commit)
    }

    /// Hands `commit` over without counting it as a read (what the feed concluded on going
    /// quiet); nothing for ``RemoteCommit/none`` and ``RemoteCommit/ownOnly``.
    func pass(_ commit: RemoteCommit) {
        switch commit {
        case .none, .ownOnly: return
        default: deliver(commit)
        }
    }

    /// A failed read: reported, unless it repeats the failure reported last (then, when
    /// `refetch`, only the re-fetch is handed over, as every failed read asks for one: as a
    /// ``RemoteCommit/externalFollowUp``, which says nothing new, so the failure reported stays
    /// what a status line shows).
    func failed(_ error: RemoteChangeError, refetch: Bool) {
        guard error != failing else {
            if refetch { deliver(.externalFollowUp) }
            return
        }
        failing = error
        deliver(.failed(error, refetch: refetch))
    }
}
