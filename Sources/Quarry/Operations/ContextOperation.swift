import Foundation
import Synchronization

/// An `Operation` with its own private-queue ``threadContext`` on a store's writer coordinator
/// (FRCoreDataOperation's `threadContext`).
///
/// Put it on an `OperationQueue`: dependencies (`addDependency(_:)`), `queuePriority` and
/// `qualityOfService` work as `Operation` gives them. When the operation starts, `main()`
/// creates ``threadContext`` (a private-queue context, merge policy object-trump, like
/// ``PersistentStack/importerContext()``) on the operation's own thread and calls
/// ``execute(in:)`` there, inside the context's `performAndWait`.
///
/// **Subclassing**: override ``execute(in:)`` (not `main()`, which sets the context up and
/// records the outcome). Work in chunks; between chunks call ``checkCancelled()`` (throws) or
/// test ``shouldContinue``, and save a finished chunk with ``saveChunk()``. A cancelled
/// operation saves nothing of its current chunk: when ``execute(in:)`` throws or returns
/// while cancelled, the context is rolled back.
///
/// **Swift concurrency**: `try await operation.run(on: queue)` adds it to `queue`, waits
/// until it finishes and rethrows its ``error``; cancelling the awaiting task cancels the
/// operation. `completionBlock` stays free for the caller.
///
/// ```swift
/// final class Touch: ContextOperation, @unchecked Sendable {
///     override func execute(in context: ObjectContext) throws {
///         for chunk in chunks {
///             try checkCancelled()
///             /* change objects of `chunk` in `context` */
///             try saveChunk()
///         }
///     }
/// }
/// try await Touch(stack: stack).run(on: queue)
/// ```
open class ContextOperation: Operation, @unchecked Sendable {
    // Own mutable state lives in `progressState` (a Mutex): the context and error are written by
    // the thread running `main()` and read from any thread; the waiters are resumed once.
    private struct State {
        var context: ObjectContext?
        var error: (any Error)?
        var isDone = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The coordinator ``threadContext`` is created on (the stack's writer coordinator).
    public let coordinator: StoreCoordinator
    private let progressState = Mutex(State())

    /// Creates an operation whose context works on `coordinator`.
    public init(coordinator: StoreCoordinator) {
        self.coordinator = coordinator
        super.init()
    }

    /// Creates an operation whose context works on `stack`'s writer coordinator, so its saves
    /// reach the store directly and are merged into the main context by the smart merge.
    public init(stack: PersistentStack) {
        self.coordinator = stack.writerCoordinator
        super.init()
    }

    /// The operation's private-queue context: `nil` until the operation starts. Use it only
    /// inside ``execute(in:)`` (or through its `perform` methods).
    public var threadContext: ObjectContext? { progressState.withLock { $0.context } }

    /// Why the operation failed or stopped (`nil` while running and after success);
    /// ``ContextOperationError/cancelled(operation:)`` when it was cancelled.
    public var error: (any Error)? { progressState.withLock { $0.error } }

    /// Whether the work should go on: `false` once the operation is cancelled.
    public var shouldContinue: Bool { !isCancelled }

    /// The name errors use: `name` when set, else the class's name.
    public var operationName: String { name ?? String(describing: type(of: self)) }

    /// Throws ``ContextOperationError/cancelled(operation:)`` when the operation is cancelled;
    /// call it between chunks.
    public func checkCancelled() throws {
        if isCancelled { throw ContextOperationError.cancelled(operation: operationName) }
    }

    /// Saves ``threadContext`` unless the operation is cancelled, in which case the chunk is
    /// rolled back and ``ContextOperationError/cancelled(operation:)`` thrown. Call it from
    /// ``execute(in:)``.
    public func saveChunk() throws {
        guard let context = threadContext else { return }
        try checkCancelled()
        try context.save()
    }

    /// The operation's work, on its own thread with ``ContextOperation/threadContext`` (passed as
    /// `context`) ready: override this in subclasses. Throwing records the error in
    /// ``ContextOperation/error`` and rolls
    /// the unsaved changes back. The default does nothing.
    open func execute(in context: ObjectContext) throws {}

    /// Creates ``threadContext`` and runs ``execute(in:)``; do not override (override
    /// ``execute(in:)``).
    override public final func main() {
        guard !isCancelled else { return record(ContextOperationError.cancelled(operation: operationName)) }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: operationName)
        context.mergePolicy = .mergeByPropertyObjectTrump
        progressState.withLock { $0.context = context }
        let failure: (any Error)? = context.performAndWait {
            do {
                try execute(in: context)
                try checkCancelled()
                return nil
            } catch {
                // A chunk that was not saved never reaches the store.
                context.rollback()
                return error
            }
        }
        if let failure { record(failure) }
    }

    /// Runs the operation (as `Operation` does) and then resumes the tasks waiting in
    /// ``completion()``.
    override open func start() {
        super.start()
        // `Operation.start()` skips `main()` for an operation cancelled before it started.
        let skipped = isCancelled ? ContextOperationError.cancelled(operation: operationName) : nil
        let waiters = progressState.withLock { s in
            if s.context == nil, s.error == nil, let skipped { s.error = skipped }
            s.isDone = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func record(_ error: any Error) {
        progressState.withLock { $0.error = error }
    }

    // MARK: Swift concurrency

    /// Waits until the operation has finished (it must be on a queue or started by someone),
    /// then throws its ``error`` if any.
    public func completion() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = progressState.withLock { s in
                if !s.isDone { s.waiters.append(continuation) }
                return s.isDone
            }
            if done { continuation.resume() }
        }
        if let error { throw error }
    }

    /// Adds the operation to `queue` and waits until it finishes; throws its ``error``.
    /// Cancelling the awaiting task cancels the operation.
    public func run(on queue: OperationQueue) async throws {
        try await withTaskCancellationHandler {
            queue.addOperation(self)
            try await completion()
        } onCancel: {
            cancel()
        }
    }
}
