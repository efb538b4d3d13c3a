import Foundation

/// A value shared between test threads, guarded by an `NSLock`.
///
/// Tests that fan work out with `DispatchQueue.concurrentPerform` collect results here rather
/// than in a local `Synchronization.Mutex`: on Linux the Mutex locks in the uninstrumented Swift
/// runtime, so ThreadSanitizer sees no ordering between the threads' accesses and reports a race
/// that is not there (see `scripts/tsan.supp`). `NSLock` is a `pthread_mutex`, which TSan
/// intercepts, so real races in the code under test stay visible.
public final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns its result.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
