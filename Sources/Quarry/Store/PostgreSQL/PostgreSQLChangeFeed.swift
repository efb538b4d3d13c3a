import Foundation

/// A PostgreSQL store's change feed: its ``PostgreSQLListener`` `LISTEN`s to the store's
/// notification channel, and each burst of notifications reads the history after the
/// reader's token, on the listener's queue.
///
/// A failed read is reported and retried (the token has not moved, so nothing is skipped); a
/// lost connection that cannot be made again at once is reported while the listener keeps
/// trying; the first read that succeeds afterwards reports the recovery.
final class PostgreSQLChangeFeed: ChangeFeed {
    /// The listener (tests watch its connection events).
    let listener: PostgreSQLListener

    /// Starts listening to `store`'s channel, reading history after its newest transaction and
    /// skipping transactions of `origin`.
    init(store: PostgreSQLStore, origin: UUID, deliver: @escaping @Sendable (RemoteCommit) -> Void) throws {
        let reader = try RemoteHistoryReader(store: store, origin: origin)
        let reporter = ChangeFeedReporter(deliver: deliver)
        let name = reader.storeName
        listener = try PostgreSQLListener(url: store.storeURL, channel: store.notificationChannel, onNotify: {
            do throws(RemoteChangeError) {
                reporter.read(try reader.nextCommit())
            } catch {
                reporter.failed(error, refetch: false)
                throw error
            }
        }, onReconnectFailure: { error in
            reporter.failed(.listenerDisconnected(store: name, reason: "\(error)"), refetch: false)
        })
    }

    func cancel() { listener.cancel() }
}
