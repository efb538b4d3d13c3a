/// A running source of other connections' commits to a store (an SQLite store's file watcher,
/// a PostgreSQL store's listener), made by ``StoreBackEnd/changeFeed(origin:deliver:)``: it
/// hands each ``RemoteCommit`` to its stack on a serial queue of its own, in commit order, and
/// every failed read as ``RemoteCommit/failed(_:refetch:)``.
protocol ChangeFeed: Sendable {
    /// Stops the feed: nothing is delivered after this returns (unless a delivery is running).
    /// Called on the feed's own queue (from a delivery), it returns at once.
    func cancel()
}
