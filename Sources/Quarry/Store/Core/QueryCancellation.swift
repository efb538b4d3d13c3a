import Synchronization

/// Cancels the store queries run under it, from any thread: the way to stop a slow fetch
/// (a filter over millions of rows, a cross join through to-many key paths) without waiting
/// for it.
///
/// A query run while a token is current (``run(_:)``) ends with
/// ``QueryCancellationError/cancelled`` soon after ``cancel()``: on SQLite it checks the token
/// every few thousand virtual-machine steps (SQLite's progress handler); on PostgreSQL the store
/// registers a cancel handler (`onCancel(_:)`) that asks the server to cancel that query
/// (libpq's cancel request). Cancelling never touches other connections or other queries, unlike
/// `sqlite3_interrupt`.
///
/// ```swift
/// let cancellation = QueryCancellation()
/// controller.performFetch(cancellation: cancellation) { error in ... }
/// cancellation.cancel()   // Esc
/// ```
public final class QueryCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// The handlers ``cancel()`` calls, by registration number (written under the mutex; the
    /// flag above is also set under it, so a handler is registered before or runs after it).
    private let handlers = Mutex(Handlers())

    private struct Handlers {
        var next = 0
        var byID: [Int: @Sendable () -> Void] = [:]
    }
    /// Called on the querying thread at every progress check (tests use it to hold a query
    /// open until they cancel it, instead of relying on a query being slow).
    let onProgress: (@Sendable (QueryCancellation) -> Void)?

    /// A token not yet cancelled.
    public init() { onProgress = nil }

    /// A token whose progress checks call `onProgress` first (for tests).
    package init(onProgress: @escaping @Sendable (QueryCancellation) -> Void) { self.onProgress = onProgress }

    /// Asks the queries run under this token to stop. Idempotent; callable from any thread.
    public func cancel() {
        let toCall = handlers.withLock { h -> [@Sendable () -> Void] in
            guard !cancelled.load(ordering: .acquiring) else { return [] }
            cancelled.store(true, ordering: .releasing)
            defer { h.byID.removeAll() }
            return h.byID.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in toCall { handler() }
    }

    /// One handler registered with `onCancel(_:)`; ``remove()`` unregisters it.
    package struct Registration: Sendable {
        let token: QueryCancellation
        let id: Int?

        /// Unregisters the handler. A ``cancel()`` that began before may still call it once, so
        /// a handler must tolerate running after its query ended.
        package func remove() {
            guard let id else { return }
            _ = token.handlers.withLock { $0.byID.removeValue(forKey: id) }
        }
    }

    /// Calls `handler` once when the token is cancelled, on the thread calling ``cancel()``
    /// (at once, on this thread, when it already is): how a store whose queries cannot poll
    /// the token (PostgreSQL) learns that it must stop one.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) -> Registration {
        let id = handlers.withLock { h -> Int? in
            guard !cancelled.load(ordering: .acquiring) else { return nil }
            h.next += 1
            h.byID[h.next] = handler
            return h.next
        }
        if id == nil { handler() }
        return Registration(token: self, id: id)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// The token the store queries started on this thread check, if any.
    @TaskLocal static var current: QueryCancellation?

    /// Runs `body` with this token current: the store queries it starts on this thread can be
    /// cancelled. Throws ``QueryCancellationError/cancelled`` when cancelled before or during it.
    public func run<T>(_ body: () throws -> T) throws -> T {
        try checkCancelled()
        return try Self.$current.withValue(self) {
            do {
                let result = try body()
                try checkCancelled()
                return result
            } catch {
                // An interrupted query fails with the store's error: report the cancellation.
                try checkCancelled()
                throw error
            }
        }
    }

    /// Throws ``QueryCancellationError/cancelled`` when cancelled.
    public func checkCancelled() throws {
        if isCancelled { throw QueryCancellationError.cancelled }
    }

    /// One progress check: whether the running query must stop.
    func shouldStop() -> Bool {
        onProgress?(self)
        return isCancelled
    }
}

/// A query ended because its ``QueryCancellation`` was cancelled.
public enum QueryCancellationError: Error, Equatable, CustomStringConvertible {
    /// Cancelled by the user (Esc, Ctrl-C) or the program.
    case cancelled

    /// A message for the status line.
    public var description: String { "the query was cancelled" }
}
