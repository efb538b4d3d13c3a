import Foundation

/// Waiting for another process without suspending: `check` runs every 20 ms on the calling
/// thread until it gives a value or `timeout` has passed (and once more at the deadline).
///
/// For tests that must act as soon as a process shows something (send Ctrl-C while it works):
/// an `await` between two looks can leave the test off every thread for seconds while the
/// whole suite runs on two cores, and the work would be over by the time the test looks again.
enum BlockingPoll {
    static func until<T>(timeout: Duration, _ check: () throws -> T?) rethrows -> T? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try check() { return value }
            if ContinuousClock.now >= deadline { return try check() }
            usleep(20_000)
        }
    }
}
