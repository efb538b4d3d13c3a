import Foundation
import Quarry
import Synchronization

/// A test hook: with `QUARRY_TEST_HOLD_FULL_INDEX=FIFO` in the environment, the browser's
/// full-index query stops at its first progress check until something is written to the named
/// pipe `FIFO` and it is closed, so an end-to-end test can see the first screen while the full
/// index is still being built, without relying on a store being slow.
struct FullIndexHold: Sendable {
    /// The environment variable naming the pipe.
    static let environmentKey = "QUARRY_TEST_HOLD_FULL_INDEX"

    let fifo: String

    /// A token whose first progress check blocks (on the querying thread) until the pipe's
    /// writer closes it.
    var cancellation: QueryCancellation {
        let fifo = fifo
        let held = Mutex(false)
        return QueryCancellation { _ in
            let first = held.withLock { wasHeld -> Bool in
                defer { wasHeld = true }
                return !wasHeld
            }
            guard first else { return }
            // Opening blocks until a writer opens; reading returns at the writer's close.
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            _ = handle.readDataToEndOfFile()
            try? handle.close()
        }
    }
}
