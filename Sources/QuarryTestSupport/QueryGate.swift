import Dispatch
import Foundation

/// Holds a store query open from inside it, so a test can act while the query "runs" without
/// relying on a query being slow: pass ``hold(_:)`` as a `QueryCancellation`'s progress hook.
///
/// The first progress check runs `body`, signals ``waitUntilStarted()`` and blocks the querying
/// thread until ``release()``; later checks pass through.
public final class QueryGate: @unchecked Sendable {
    // `opened` is guarded by `lock`; the semaphores are thread-safe.
    private let lock = NSLock()
    private var opened = false
    private let started = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    /// A closed gate.
    public init() {}

    /// On the first call only: runs `body`, says the query started, then waits for ``release()``.
    public func hold(_ body: () -> Void = {}) {
        let first = lock.withLock { () -> Bool in
            defer { opened = true }
            return !opened
        }
        guard first else { return }
        body()
        started.signal()
        released.wait()
    }

    /// Lets the held query go on.
    public func release() { released.signal() }

    /// Waits, without blocking the caller's executor, until a query is held, or `seconds`
    /// passed; returns whether one is.
    public func waitUntilStarted(within seconds: Double) async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async {
                done.resume(returning: self.started.wait(timeout: .now() + seconds) == .success)
            }
        }
    }

    /// Waits, without blocking the caller's executor, until a query is held, or
    /// ``defaultEventDeadline`` passed (the test then fails on what it expected of the held query).
    public func waitUntilStarted() async {
        _ = await waitUntilStarted(within: Double(defaultEventDeadline.components.seconds))
    }
}
