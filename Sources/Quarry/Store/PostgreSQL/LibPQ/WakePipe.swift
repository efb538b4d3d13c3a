import Foundation
import Synchronization

/// How a thread blocked on a libpq connection's socket is told to stop from another thread: a
/// pipe whose read end the thread polls beside the socket (``readDescriptor``), written once by
/// ``stop()``, which then waits for the thread to say it ended (``threadEnded()``).
///
/// Used by ``PostgreSQLNotificationWaiter`` and ``PostgreSQLReplicationFeed``.
final class WakePipe: Sendable {
    /// The end the waiting thread polls: readable once ``stop()`` was called.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let stopped = Mutex(false)
    private let ended = DispatchSemaphore(value: 0)

    /// A new pipe; `purpose` names it in the error.
    /// - Throws: ``PGError/connection(_:)`` when the system cannot make one.
    init(purpose: String) throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw PGError.connection("could not make the \(purpose)'s wake pipe: \(String(cString: strerror(errno)))")
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.withLock { $0 } }

    /// The waiting thread's last word: ``stop()`` returns once it is said.
    func threadEnded() { ended.signal() }

    /// Wakes the waiting thread and, unless `waiting` is false (called on that thread itself),
    /// returns once it ended. Idempotent.
    func stop(waiting: Bool = true) {
        guard !stopped.withLock({ s in defer { s = true }; return s }) else { return }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)  // the pipe is empty and ours: one byte always fits
        if waiting { ended.wait() }
    }
}
