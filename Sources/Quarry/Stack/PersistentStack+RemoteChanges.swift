import Foundation
import Synchronization

extension PersistentStack {
    /// Posted to `NotificationCenter.default` on the main queue, with the stack as `object` and a
    /// ``RemoteChange`` under ``remoteChangeUserInfoKey``, after another process's commit (or
    /// another stack's on the same file) was merged into ``mainContext``.
    ///
    /// Commits that recorded history are merged like importer saves: registered objects
    /// refresh, nothing else is loaded, fetched-results controllers report row changes. A write
    /// that recorded none (a program that bypassed Quarry) or history pruned behind the stack
    /// makes the main context refresh what it holds and its controllers re-fetch and report the
    /// difference; the change then says ``RemoteChange/isExternal``.
    ///
    /// ```swift
    /// stack.addRemoteChangeObserver { change in
    ///     if change.isExternal { status = "external change" }
    /// }
    /// ```
    public static let remoteChangeNotification = Notification.Name("QuarryPersistentStackRemoteChange")
    /// The `userInfo` key holding the ``RemoteChange`` of a ``remoteChangeNotification``.
    public static let remoteChangeUserInfoKey = "remoteChange"

    /// Whether the stack watches its store for other processes' commits (see
    /// ``Options/watchesRemoteChanges``): an SQLite store Quarry made, or a PostgreSQL store.
    public var watchesRemoteChanges: Bool { state.withLock { $0.remoteWatch != nil } }

    /// Calls `block` on the main queue after each remote change was merged into the main context.
    @discardableResult
    public func addRemoteChangeObserver(_ block: @escaping @Sendable (RemoteChange) -> Void) -> ObservationToken {
        let id = remoteObservers.withLock { o in let id = (o.keys.max() ?? 0) + 1; o[id] = block; return id }
        return ObservationToken { [weak self] in self?.remoteObservers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// Starts the store watcher when the options ask for it and the store is an SQLite store
    /// Quarry made, or the PostgreSQL listener for a PostgreSQL store.
    func startWatchingRemoteChanges() throws {
        let (options, store) = state.withLock { ($0.options, $0.mainCoordinator.store) }
        guard options.watchesRemoteChanges, options.foreignDatabase == nil else { return }
        let origin = historyOrigin ?? UUID()
        let watch: RemoteChangeWatch
        switch options.storeType {
        case .sqlite:
            guard let url = store.url, (store as? SQLiteStore)?.readsFileAsOpened != true else { return }
            watch = try RemoteChangeWatch(storeURL: url, store: store, origin: origin) { [weak self] commit, watch in
                self?.deliver(commit, storeURL: url, watch: watch)
            }
        case .postgreSQL:
            #if PostgreSQL
            guard let postgreSQL = store as? PostgreSQLStore else { return }
            // The URL without its password: a RemoteChange is shown to users.
            let shown = URL(string: postgreSQL.storeURL.description) ?? URL(fileURLWithPath: "/")
            watch = try RemoteChangeWatch(postgreSQL: postgreSQL, origin: origin) { [weak self] commit, watch in
                self?.deliver(commit, storeURL: shown, watch: watch)
            }
            #else
            return
            #endif
        case .json, .inMemory:
            return
        }
        state.withLock { $0.remoteWatch = watch }
    }

    /// Stops the store watcher (before the store is torn down).
    func stopWatchingRemoteChanges() {
        state.withLock { s in defer { s.remoteWatch = nil }; return s.remoteWatch }?.cancel()
    }

    /// Merges `commit` into the main context on the main queue and announces it.
    private func deliver(_ commit: RemoteCommit, storeURL: URL, watch: RemoteChangeWatch) {
        let main = mainContext
        main.perform { [weak self] in
            // While merging is paused the browser re-fetches on resume: nothing is lost. A watch
            // cancelled since (the store torn down) delivers nothing more.
            guard let self, self.mergesIncomingSavedObjects, !watch.isCancelled else { return }
            let change: RemoteChange
            switch commit {
            case .merge(let changes, let tokens):
                main.merge(fromDidSave: changes)
                change = RemoteChange(storeURL: storeURL, tokens: tokens, isExternal: false)
            case .external:
                main.mergeExternalStoreChange()
                change = RemoteChange(storeURL: storeURL, tokens: nil, isExternal: true)
            case .ownOnly, .none:
                return
            }
            for block in self.remoteObservers.withLock({ $0.sorted { $0.key < $1.key }.map(\.value) }) { block(change) }
            NotificationCenter.default.post(name: Self.remoteChangeNotification, object: self,
                                            userInfo: [Self.remoteChangeUserInfoKey: change])
        }
    }
}

extension Notification {
    /// The ``RemoteChange`` of a ``PersistentStack/remoteChangeNotification``.
    public var remoteChange: RemoteChange? { userInfo?[PersistentStack.remoteChangeUserInfoKey] as? RemoteChange }
}

/// A stack's store watcher (SQLite) or listener (PostgreSQL) and history reader: commits by
/// other connections become ``RemoteCommit``s, handed to `deliver` on the watcher's queue, in
/// commit order, with the watch itself (so a delivery can tell that it was cancelled since).
final class RemoteChangeWatch: Sendable {
    private let stop = Mutex<(@Sendable () -> Void)?>(nil)
    private let cancelled = Mutex(false)
    #if PostgreSQL
    private let listener = Mutex<PostgreSQLListener?>(nil)
    /// The listener of a PostgreSQL store's watch (`nil` for SQLite).
    var postgreSQLListener: PostgreSQLListener? { listener.withLock { $0 } }
    #endif

    init(storeURL: URL, store: PersistentStore, origin: UUID,
         deliver: @escaping @Sendable (RemoteCommit, RemoteChangeWatch) -> Void) throws {
        let reader = try RemoteHistoryReader(store: store, origin: origin)
        let watcher = try StoreWatcher(storeURL: storeURL, onCommit: { [weak self] logWritten, outsideWrite in
            guard let self else { return }
            // A history read that fails (the file replaced under us) is answered by re-fetching.
            let commit = (try? reader.nextCommit(logWritten: logWritten, outsideWrite: outsideWrite)) ?? .external
            if case .none = commit { return }
            deliver(commit, self)
        }, onQuiet: { [weak self] in
            guard let self else { return }
            if case .external = reader.settle() { deliver(.external, self) }
        })
        stop.withLock { $0 = { watcher.cancel() } }
    }

    #if PostgreSQL
    /// Listens to `store`'s notification channel (see ``PostgreSQLListener``): each burst of
    /// notifications reads the history after the reader's token; a failed read is retried
    /// (the token has not moved, so nothing is skipped).
    init(postgreSQL store: PostgreSQLStore, origin: UUID,
         deliver: @escaping @Sendable (RemoteCommit, RemoteChangeWatch) -> Void) throws {
        let reader = try RemoteHistoryReader(store: store, origin: origin)
        let listener = try PostgreSQLListener(url: store.storeURL, channel: store.notificationChannel) { [weak self] in
            guard let self else { return }
            let commit = try reader.nextCommit()
            if case .none = commit { return }
            deliver(commit, self)
        }
        self.listener.withLock { $0 = listener }
        stop.withLock { $0 = { listener.cancel() } }
    }
    #endif

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Stops watching: nothing is delivered after this returns (a delivery already on the main
    /// queue's way checks ``isCancelled``).
    func cancel() {
        cancelled.withLock { $0 = true }
        stop.withLock { $0 }?()
    }
}
