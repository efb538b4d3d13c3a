import Foundation

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
    /// ``Options/watchesRemoteChanges``): an SQLite store Quarry made only.
    public var watchesRemoteChanges: Bool { state.withLock { $0.remoteWatch != nil } }

    /// Calls `block` on the main queue after each remote change was merged into the main context.
    @discardableResult
    public func addRemoteChangeObserver(_ block: @escaping @Sendable (RemoteChange) -> Void) -> ObservationToken {
        let id = remoteObservers.withLock { o in let id = (o.keys.max() ?? 0) + 1; o[id] = block; return id }
        return ObservationToken { [weak self] in self?.remoteObservers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// Starts the store watcher when the options ask for it and the store is an SQLite store
    /// Quarry made.
    func startWatchingRemoteChanges() throws {
        let (options, store) = state.withLock { ($0.options, $0.mainCoordinator.store) }
        guard options.watchesRemoteChanges, options.storeType == .sqlite, options.foreignDatabase == nil,
              let url = store.url else { return }
        let watch = try RemoteChangeWatch(storeURL: url, store: store, origin: historyOrigin ?? UUID()) { [weak self] commit in
            self?.deliver(commit, storeURL: url)
        }
        state.withLock { $0.remoteWatch = watch }
    }

    /// Stops the store watcher (before the store is torn down).
    func stopWatchingRemoteChanges() {
        state.withLock { s in defer { s.remoteWatch = nil }; return s.remoteWatch }?.cancel()
    }

    /// Merges `commit` into the main context on the main queue and announces it.
    private func deliver(_ commit: RemoteCommit, storeURL: URL) {
        let main = mainContext
        main.perform { [weak self] in
            // While merging is paused the browser re-fetches on resume: nothing is lost.
            guard let self, self.mergesIncomingSavedObjects else { return }
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

/// A stack's store watcher and history reader: commits by other connections become
/// ``RemoteCommit``s, handed to `deliver` on the watcher's queue, in commit order.
final class RemoteChangeWatch: Sendable {
    private let watcher: StoreWatcher

    init(storeURL: URL, store: PersistentStore, origin: UUID,
         deliver: @escaping @Sendable (RemoteCommit) -> Void) throws {
        let reader = try RemoteHistoryReader(store: store, origin: origin)
        watcher = try StoreWatcher(storeURL: storeURL, onCommit: { logWritten in
            // A history read that fails (the file replaced under us) is answered by re-fetching.
            let commit = (try? reader.nextCommit(logWritten: logWritten)) ?? .external
            if case .none = commit { return }
            deliver(commit)
        }, onQuiet: {
            if case .external = reader.settle() { deliver(.external) }
        })
    }

    /// Stops watching: nothing is delivered after this returns (unless being delivered).
    func cancel() { watcher.cancel() }
}
