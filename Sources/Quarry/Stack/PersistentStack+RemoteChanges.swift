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
    /// difference; the change then says ``RemoteChange/isExternal``. A read on the remote path
    /// that fails is posted too, as a change whose ``RemoteChange/error`` says what failed
    /// (see ``lastRemoteError``).
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

    /// Calls `block` on the main queue after each remote change was merged into the main
    /// context, and for each failure to follow one (a change whose ``RemoteChange/error`` is set).
    @discardableResult
    public func addRemoteChangeObserver(_ block: @escaping @Sendable (RemoteChange) -> Void) -> ObservationToken {
        let id = remoteObservers.withLock { o in let id = (o.keys.max() ?? 0) + 1; o[id] = block; return id }
        return ObservationToken { [weak self] in self?.remoteObservers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    /// The last failure on the remote path (a history read, a check for commits, the
    /// PostgreSQL listener's reconnection, the objects a commit changed), as its
    /// ``RemoteChange/error`` told the observers; `nil` while none happened, and again once a
    /// later read of another connection's commit succeeds.
    ///
    /// Set on the main queue, just before the observers of the failure are called; readable
    /// from any thread.
    ///
    /// ```swift
    /// if let error = stack.lastRemoteError { status = "not following other writers: \(error)" }
    /// ```
    public var lastRemoteError: RemoteChangeError? { state.withLock { $0.lastRemoteError } }

    /// Starts following other connections' commits when the options ask for it and the back
    /// end has a change feed (an SQLite store Quarry made, a PostgreSQL store).
    func startWatchingRemoteChanges() throws {
        let (options, backEnd) = state.withLock { ($0.options, $0.backEnd) }
        guard options.watchesRemoteChanges else { return }
        let origin = historyOrigin ?? UUID()
        // The URL a change names (a PostgreSQL URL without its password: a RemoteChange is shown to users).
        let storeURL = backEnd.main.url ?? URL(fileURLWithPath: "/")
        let watch = RemoteChangeWatch()
        let feed = try backEnd.changeFeed(origin: origin) { [weak self, weak watch] commit in
            guard let self, let watch else { return }
            self.deliver(commit, storeURL: storeURL, watch: watch)
        }
        guard let feed else { return }
        watch.start(feed)
        state.withLock { $0.remoteWatch = watch }
    }

    /// Stops the store watcher (before the store is torn down).
    func stopWatchingRemoteChanges() {
        state.withLock { s in defer { s.remoteWatch = nil }; return s.remoteWatch }?.cancel()
    }

    /// Merges `commit` into the main context on the main queue and announces it; a failure is
    /// kept as ``lastRemoteError`` and announced too, also while merging is paused.
    private func deliver(_ commit: RemoteCommit, storeURL: URL, watch: RemoteChangeWatch) {
        let main = mainContext
        main.perform { [weak self] in
            // A watch cancelled since (the store torn down) delivers nothing more.
            guard let self, !watch.isCancelled else { return }
            // While merging is paused the browser re-fetches on resume: nothing is lost.
            let merges = self.mergesIncomingSavedObjects
            let change: RemoteChange
            switch commit {
            case .merge(let changes, let tokens):
                guard merges else { return }
                main.merge(fromDidSave: changes)
                // Counted with the in-process merges: a browser's status line says "merged" for both.
                self.state.withLock { $0.lastMerge = Date(); $0.mergeCount += 1 }
                change = RemoteChange(storeURL: storeURL, tokens: tokens, isExternal: false)
            case .external, .externalFollowUp:
                guard merges else { return }
                main.mergeExternalStoreChange()
                let followUp = if case .externalFollowUp = commit { true } else { false }
                change = RemoteChange(storeURL: storeURL, tokens: nil, isExternal: true, isFollowUp: followUp)
            case .failed(let error, let refetch):
                if refetch && merges { main.mergeExternalStoreChange() }
                self.state.withLock { $0.lastRemoteError = error }
                change = RemoteChange(storeURL: storeURL, tokens: nil, isExternal: refetch && merges, error: error)
            case .recovered:
                self.state.withLock { $0.lastRemoteError = nil }
                return
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
