import Foundation

extension PersistentStack {
    /// Sets up a stack for `model` on a background queue and calls `completion` once, on the
    /// main queue, with the stack or the error.
    public static func setUp(model: ManagedObjectModel, options: Options = Options(),
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try PersistentStack(model: model, options: options) }, completion: completion)
    }

    /// Sets up a stack with every model in `folder` merged (``init(modelsIn:options:)``;
    /// RTCoreDataStack's `setupWithCallback:`) on a background queue and calls `completion`
    /// once, on the main queue, with the stack or the error (a ``ModelError`` such as
    /// ``ModelError/duplicateEntityInFiles(entity:first:second:)``, or a ``StoreError``).
    ///
    /// ```swift
    /// PersistentStack.setUp(modelsIn: modelsFolder) { result in
    ///     guard case .success(let stack) = result else { return }
    ///     // on the main queue: show stack.mainContext's objects
    /// }
    /// ```
    public static func setUp(modelsIn folder: URL, options: Options = Options(),
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try PersistentStack(modelsIn: folder, options: options) }, completion: completion)
    }

    /// Sets up a stack with the model named `name` in `folder` (``init(modelNamed:in:options:)``,
    /// store `<name>.sqlite` by default; RTCoreDataStack's `setupWithDataModelNamed:callback:`)
    /// on a background queue and calls `completion` once, on the main queue, with the stack or
    /// the error.
    public static func setUp(modelNamed name: String, in folder: URL, options: Options = Options(),
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try PersistentStack(modelNamed: name, in: folder, options: options) }, completion: completion)
    }

    /// Sets up a stack with the model file at `modelURL` and its store of `storeType` at
    /// `storeURL` (``init(modelURL:storeURL:storeType:options:)``; RTCoreDataStack's
    /// `setupWithDataModelNamed:storeURL:callback:`) on a background queue and calls
    /// `completion` once, on the main queue, with the stack or the error.
    public static func setUp(modelURL: URL, storeURL: URL?, storeType: StoreType = .sqlite, options: Options = Options(),
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        setUpOffMain({ try PersistentStack(modelURL: modelURL, storeURL: storeURL, storeType: storeType, options: options) },
                     completion: completion)
    }

    /// Sets up a stack off the caller's thread.
    public static func make(model: ManagedObjectModel, options: Options = Options()) async throws -> PersistentStack {
        try await withCheckedThrowingContinuation { c in
            DispatchQueue.global().async { c.resume(with: Result { try PersistentStack(model: model, options: options) }) }
        }
    }

    /// Runs `makeStack` on a background queue, then calls `completion` once on the main queue
    /// with its stack or error: every completion form of set-up goes through here.
    static func setUpOffMain(_ makeStack: @escaping @Sendable () throws -> PersistentStack,
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        DispatchQueue.global().async {
            let result = Result { try makeStack() }
            DispatchQueue.main.async { completion(result) }
        }
    }
}
