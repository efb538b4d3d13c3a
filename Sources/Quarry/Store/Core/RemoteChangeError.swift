/// Why a stack could not follow another connection's commit to its store: a value the stack's
/// remote-change observers see (``RemoteChange/error``) and the stack keeps
/// (``PersistentStack/lastRemoteError``), never a failure that passes silently.
///
/// Each case names the store (a file path, or a PostgreSQL URL without its password) and why
/// the read failed, as the underlying error said it.
///
/// ```swift
/// stack.addRemoteChangeObserver { change in
///     if let error = change.error { status = "not following other writers: \(error)" }
/// }
/// ```
public enum RemoteChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store's persistent history could not be read after a commit was noticed (its history
    /// tables dropped or damaged, the file replaced, the connection lost mid-read). An SQLite
    /// stack re-fetches its visible results instead; a PostgreSQL stack retries the read.
    case historyUnreadable(store: String, reason: String)
    /// The objects a commit changed could not be read for the merge (the history was read).
    case objectsUnreadable(store: String, reason: String)
    /// Whether the store changed could not be checked (an SQLite store's `PRAGMA data_version`,
    /// read on the watcher's own connection): commits may go unnoticed until it can.
    case changeCheckFailed(store: String, reason: String)
    /// The connection that listens for commits (PostgreSQL `LISTEN`) was lost and could not be
    /// made again yet: commits are not noticed until it is (the listener keeps trying, and
    /// catches up once it listens again).
    case listenerDisconnected(store: String, reason: String)
    /// Other programs' commits to the store cannot be followed at all (a PostgreSQL schema
    /// Quarry did not make, on a server or with a role that cannot stream its changes): they
    /// show when the results are re-fetched. `reason` says why and what would make it live.
    case notLive(store: String, reason: String)

    /// The store the failure concerns.
    public var store: String {
        switch self {
        case .historyUnreadable(let store, _), .objectsUnreadable(let store, _),
             .changeCheckFailed(let store, _), .listenerDisconnected(let store, _), .notLive(let store, _):
            return store
        }
    }

    /// Why it failed, as the underlying error said it.
    public var reason: String {
        switch self {
        case .historyUnreadable(_, let reason), .objectsUnreadable(_, let reason),
             .changeCheckFailed(_, let reason), .listenerDisconnected(_, let reason), .notLive(_, let reason):
            return reason
        }
    }

    public var description: String {
        switch self {
        case .historyUnreadable(let store, let reason):
            return "cannot read the history of \(store) to follow other writers: \(reason)"
        case .objectsUnreadable(let store, let reason):
            return "cannot read the objects another writer changed in \(store): \(reason)"
        case .changeCheckFailed(let store, let reason):
            return "cannot check \(store) for other writers' commits: \(reason)"
        case .listenerDisconnected(let store, let reason):
            return "lost the connection listening for commits to \(store) and cannot reconnect yet: \(reason)"
        case .notLive(let store, let reason):
            return "other programs' changes to \(store) do not show live: \(reason)"
        }
    }
}
