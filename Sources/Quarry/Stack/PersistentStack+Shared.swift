import Foundation
import Synchronization

extension PersistentStack {
    /// The configurable default stack (RTCoreDataStack's `defaultManager`; `nil` until set):
    /// set it once at launch, with one of the `setUpShared` forms or by assigning a stack.
    ///
    /// Thread-safe: reading and setting go through a lock (a `Mutex`), so any thread or task
    /// may read or set it at any time; a read sees `nil` or a whole stack that was set.
    ///
    /// ```swift
    /// try PersistentStack.setUpShared(model: model)
    /// let main = PersistentStack.shared!.mainContext
    /// ```
    public static var shared: PersistentStack? {
        get { sharedStack.withLock { $0 } }
        set { sharedStack.withLock { $0 = newValue } }
    }

    /// Sets up a stack for `model` with `options`, makes it ``shared`` and returns it.
    /// - Throws: what ``init(model:options:)`` throws; ``shared`` is then left as it was.
    @discardableResult
    public static func setUpShared(model: ManagedObjectModel, options: Options = Options()) throws -> PersistentStack {
        try share(PersistentStack(model: model, options: options))
    }

    /// Sets up a stack for `model` on a background queue, makes it ``shared``, then calls
    /// `completion` once on the main queue with it (or with the error, ``shared`` unchanged).
    public static func setUpShared(model: ManagedObjectModel, options: Options = Options(),
                                   completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try share(PersistentStack(model: model, options: options)) }, completion: completion)
    }

    /// ``setUp(modelsIn:options:completion:)`` that makes the stack ``shared`` before calling
    /// `completion` (RTCoreDataStack's `[[RTCoreDataManager defaultManager] setupWithCallback:]`).
    public static func setUpShared(modelsIn folder: URL, options: Options = Options(),
                                   completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try share(PersistentStack(modelsIn: folder, options: options)) }, completion: completion)
    }

    /// ``setUp(modelNamed:in:options:completion:)`` that makes the stack ``shared`` before
    /// calling `completion` (RTCoreDataStack's `defaultManager` `setupWithDataModelNamed:callback:`).
    public static func setUpShared(modelNamed name: String, in folder: URL, options: Options = Options(),
                                   completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try share(PersistentStack(modelNamed: name, in: folder, options: options)) }, completion: completion)
    }

    /// Makes `stack` ``shared`` and returns it.
    private static func share(_ stack: PersistentStack) -> PersistentStack {
        shared = stack
        return stack
    }
}

/// The stack behind ``PersistentStack/shared``.
private let sharedStack = Mutex<PersistentStack?>(nil)
