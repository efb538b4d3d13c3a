import Synchronization

/// Cancels the store queries run under it, from any thread: the way to stop a slow fetch
/// (a filter over millions of rows, a cross join through to-many key paths) without waiting
/// for it.
///
/// A query run while a token is current (``run(_:)``) checks it every few thousand SQLite
/// virtual-machine steps (SQLite's progress handler) and ends with
/// ``QueryCancellationError/cancelled`` soon after ``cancel()``. Cancelling never touches other
/// connections or other queries, unlike `sqlite3_interrupt`.
///
/// ```swift
/// let cancellation = QueryCancellation()
/// controller.performFetch(cancellation: cancellation) { error in ... }
/// cancellation.cancel()   // Esc
/// ```
public final class QueryCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Called on the querying thread at every progress check (tests use it to hold a query
    /// open until they cancel it, instead of relying on a query being slow).
    let onProgress: (@Sendable (QueryCancellation) -> Void)?

    /// A token not yet cancelled.
    public init() { onProgress = nil }

    /// A token whose progress checks call `onProgress` first (for tests).
    package init(onProgress: @escaping @Sendable (QueryCancellation) -> Void) { self.onProgress = onProgress }

    /// Asks the queries run under this token to stop. Idempotent; callable from any thread.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

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
