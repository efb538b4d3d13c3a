import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for long background work that must not take the cores from the thread
/// a user watches: it runs at a lower scheduling priority (five nice levels down on Linux).
///
/// A fetched-results controller builds its full index (a million results: half a second of one
/// core) while the browser draws its first screen from a preview; on two cores shared with the
/// terminal, an index build at the same priority preempted the drawing thread often enough to
/// delay the first screen by a third. A dispatch worker cannot be lowered for one job only (an
/// unprivileged thread cannot raise its priority back), so the work gets a thread that ends
/// with it.
enum YieldingThread {
    /// How many nice levels below the caller's the thread runs.
    static let niceLevels: Int32 = 5

    /// Starts `work` on a new thread named `name`, at a lower priority.
    static func start(name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread {
            lowerOwnPriority()
            work()
        }
        thread.name = name
        thread.start()
    }

    /// Lowers the calling thread's priority: on Linux a nice value belongs to a thread, and
    /// `PRIO_PROCESS` with ID 0 names the calling one. Left as it is where it cannot be read
    /// or set.
    private static func lowerOwnPriority() {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        _ = setpriority(which, 0, min(19, current + niceLevels))
        #endif
    }
}
