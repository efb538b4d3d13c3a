import Foundation
import Synchronization

/// A thread that waits for notifications on one listening ``PGConnection`` (libpq has no
/// callbacks: it reads the connection's socket when asked) and reports them, or the
/// connection's loss, through its two handlers.
///
/// The connection is used only on the waiter's thread once it starts; ``stop()`` wakes the
/// thread through a pipe, waits for it to end, and drops the connection.
///
/// `@unchecked Sendable`: the pipe's descriptors never change after `init`; `connection` is
/// touched only by the waiter's thread until it ends (`ended` orders that before `stop()`
/// returns); `stopped` is a Mutex.
final class PostgreSQLNotificationWaiter: @unchecked Sendable {
    private let connection: PGConnection
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let ended = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    /// Starts waiting on `connection` (which must already `LISTEN`): `onNotify` runs on the
    /// waiter's thread with each burst of notifications, `onLost` once if the connection is lost
    /// (the thread then ends). Handlers must not block: hop to a queue.
    /// - Throws: ``PGError/connection(_:)`` when the wake pipe cannot be made.
    init(connection: PGConnection, label: String, onNotify: @escaping @Sendable ([PGConnection.Notification]) -> Void,
         onLost: @escaping @Sendable (PGError) -> Void) throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw PGError.connection("could not make the listener's wake pipe: \(String(cString: strerror(errno)))")
        }
        self.connection = connection
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
        let thread = Thread { [self] in
            defer { ended.signal() }
            while true {
                switch connection.waitForNotifications(wakingOn: wakeRead) {
                case .notified(let notifications): onNotify(notifications)
                case .woken: return
                case .lost(let error):
                    if !stopped.withLock({ $0 }) { onLost(error) }
                    return
                }
            }
        }
        thread.name = label
        thread.start()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Wakes the thread and returns once it ended; the connection closes as the waiter goes.
    /// Idempotent. Never call it from one of the handlers (they run on the waiter's thread).
    func stop() {
        guard !stopped.withLock({ s in defer { s = true }; return s }) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // the pipe is empty and ours: one byte always fits
        ended.wait()
    }
}
