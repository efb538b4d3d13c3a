/// A change feed that could not start for want of a system resource (Linux's inotify
/// instances or watches, file descriptors): the store itself opens fine, and a stack opens it
/// without following other processes' commits (``RemoteChangeError/notLive(store:reason:)``),
/// rather than refusing to open it.
struct ChangeFeedUnavailable: Error, CustomStringConvertible {
    /// The store (its path).
    let store: String
    /// What ran out, as the system said, and what would lift it.
    let reason: String

    var description: String { "\(store): \(reason)" }
}
