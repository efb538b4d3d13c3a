import Foundation

/// Checks `condition` every 10 ms on the calling thread until it holds or `seconds` have
/// passed; whether it held. For a look at another process's files (a partial file appearing,
/// a log growing) that must not wait behind other tests: an async poll can be resumed only
/// when a thread of the shared pool is free, by which time the process may have moved on.
public func waitHoldingThread(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(10_000)
    }
    return true
}
