import Synchronization

/// A stack's hold on its back end's change feed: commits by other connections become
/// ``RemoteCommit``s delivered to the stack, and ``isCancelled`` lets a delivery already on the
/// main queue's way tell that the store was torn down since.
final class RemoteChangeWatch: Sendable {
    private let feed = Mutex<(any ChangeFeed)?>(nil)
    private let cancelled = Mutex(false)

    /// A watch whose feed starts later (``start(_:)``): the feed's deliveries name the watch.
    init() {}

    /// The feed this watch holds (tests reach a PostgreSQL feed's listener through it).
    var changeFeed: (any ChangeFeed)? { feed.withLock { $0 } }

    /// Holds `changeFeed` until ``cancel()`` (or until the watch is released).
    func start(_ changeFeed: any ChangeFeed) {
        feed.withLock { $0 = changeFeed }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Stops the feed: nothing is delivered after this returns (a delivery already on the main
    /// queue's way checks ``isCancelled``).
    func cancel() {
        cancelled.withLock { $0 = true }
        feed.withLock { $0 }?.cancel()
    }
}
