import Dispatch

/// A value that lives on one serial dispatch queue: every read and write runs there, one at a
/// time, through ``sync(_:)``.
///
/// Used instead of `Synchronization.Mutex` where threads contend: on Linux a contended `Mutex`
/// is taken inside the kernel (a priority-inheriting futex), which Thread Sanitizer cannot see,
/// so it reports the state the mutex protects as racing. A queue is understood by the sanitizer
/// and keeps the same guarantees.
final class QueueConfined<Value>: @unchecked Sendable {
    // `value` is read and written only on `queue` (inside `sync`).
    private var value: Value
    private let queue: DispatchQueue

    /// Confines `value` to a new serial queue named `label`.
    init(_ value: Value, label: String) {
        self.value = value
        self.queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the queue with the value, and waits for it. `body` must not call
    /// `sync` on the same instance.
    func sync<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try queue.sync { try body(&value) }
    }
}
