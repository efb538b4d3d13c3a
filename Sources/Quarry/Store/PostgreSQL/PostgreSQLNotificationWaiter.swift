import Foundation
import Synchronization

/// A thread that waits for notifications on one listening ``PGConnection`` (libpq has no
/// callbacks: it reads the connection's socket when asked) and reports them, or the
/// connection's loss, through its two handlers.
///
/// The connection is used only on the waiter's thread once it starts; ``stop()`` wakes the
/// thread through a pipe, waits for it to end, and drops the connection.
///
/// `@unchecked Sendable`: `connection` is touched only by the waiter's thread until it ends
/// (the ``WakePipe`` orders that before `stop()` returns).
final class PostgreSQLNotificationWaiter: @unchecked Sendable {
    private let connection: PGConnection
    private let wake: WakePipe

    /// Starts waiting on `connection` (which must already `LISTEN`): `onNotify` runs on the
    /// waiter's thread with each burst of notifications, `onLost` once if the connection is lost
    /// (the thread then ends). Handlers must not block: hop to a queue.
    /// - Throws: ``PGError/connection(_:)`` when the wake pipe cannot be made.
    init(connection: PGConnection, label: String, onNotify: @escaping @Sendable ([PGConnection.Notification]) -> Void,
         onLost: @escaping @Sendable (PGError) -> Void) throws {
        let wake = try WakePipe(purpose: "listener")
        self.connection = connection
        self.wake = wake
        let thread = Thread {
            defer { wake.threadEnded() }
            while true {
                switch connection.waitForNotifications(wakingOn: wake.readDescriptor) {
                case .notified(let notifications): onNotify(notifications)
                case .woken: return
                case .lost(let error):
                    if !wake.isStopped { onLost(error) }
                    return
                }
            }
        }
        thread.name = label
        thread.start()
    }

    /// Wakes the thread and returns once it ended; the connection closes as the waiter goes.
    /// Idempotent. Never call it from one of the handlers (they run on the waiter's thread).
    func stop() { wake.stop() }
}
