import Foundation

/// An SQLite store's change feed: its ``SQLiteStoreWatcher`` notices other connections'
/// commits, and a ``RemoteHistoryReader`` reads what they changed, on the watcher's queue.
///
/// A history read that fails (the history tables dropped, the file replaced under the stack)
/// is reported and answered by re-fetching, since what changed is unknown; a `data_version`
/// read that fails is reported (the watcher counts it as no change).
final class SQLiteChangeFeed: ChangeFeed {
    private let watcher: SQLiteStoreWatcher

    /// Starts watching `store`'s file at `storeURL`, reading history after its newest
    /// transaction and skipping transactions of `origin`; `watchesFolder` false polls the
    /// files instead of asking inotify (as the watcher does when the system's limit is reached).
    /// - Throws: ``StoreError`` when the file cannot be watched or its history cannot be read.
    init(store: SQLiteStore, storeURL: URL, origin: UUID, watchesFolder: Bool = true,
         deliver: @escaping @Sendable (RemoteCommit) -> Void) throws {
        let reader = try RemoteHistoryReader(store: store, origin: origin)
        let reporter = ChangeFeedReporter(deliver: deliver)
        let name = reader.storeName
        watcher = try SQLiteStoreWatcher(storeURL: storeURL, watchesFolder: watchesFolder, onCommit: { writes in
            do throws(RemoteChangeError) {
                reporter.read(try reader.nextCommit(writes))
            } catch {
                reporter.failed(error, refetch: true)
            }
        }, onQuiet: {
            reporter.pass(reader.settle())
        }, onCheckFailure: { error in
            reporter.failed(.changeCheckFailed(store: name, reason: "\(error)"), refetch: false)
        })
    }

    func cancel() { watcher.cancel() }

    /// Whether the feed polls the store's files (no inotify watch).
    var polls: Bool { watcher.polls }
}
