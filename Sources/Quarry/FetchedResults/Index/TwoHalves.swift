import Foundation

/// A batch of lookups split in two halves run side by side, on the calling thread and one
/// worker, when it is large enough to pay for waking the worker.
///
/// The lookups of a change batch (where each changed result is, where it goes) wait on memory
/// scattered over the whole index; two cores overlap twice the waits. The halves only read
/// the index, and each writes only its own range of the output, so they share nothing
/// mutable; ``run(count:_:)`` returns once both are done.
enum TwoHalves {
    /// Items below which a batch runs in one piece on the calling thread (waking a worker
    /// costs about as much as a hundred lookups). Debug builds split small batches too, so
    /// that the tests (and the Thread Sanitizer's run of them) take the split path.
    #if DEBUG
    static let minimumCount = 8
    #else
    static let minimumCount = 256
    #endif

    /// Whether the machine has a second core to run a half on (read once).
    private static let hasTwoCores = ProcessInfo.processInfo.activeProcessorCount > 1

    /// Calls `body` with `0..<count` in one piece, or with its two halves side by side.
    static func run(count: Int, _ body: (Range<Int>) -> Void) {
        guard count >= minimumCount, hasTwoCores else { return body(0..<count) }
        let middle = count / 2
        withoutActuallyEscaping(body) { body in
            // Safe to share: `concurrentPerform` returns only after both calls, which read
            // shared state and write disjoint ranges (see the type's documentation).
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                body(half == 0 ? 0..<middle : middle..<count)
            }
        }
    }
}
