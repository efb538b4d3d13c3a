import Foundation
import Synchronization
@testable import Quarry
import QuarryTestSupport

/// What a set-up's completion callback delivered: its result, whether it ran on the main
/// queue, and how many times it had been called once the main queue had run what it held.
struct SetUpCompletion: Sendable {
    let result: Result<PersistentStack, Error>
    let onMainQueue: Bool
    let calls: Int

    /// The stack, or the error the set-up threw.
    func stack() throws -> PersistentStack { try result.get() }

    /// Starts a set-up with `start`, handing it a completion callback, and waits (without
    /// sleeping, until `deadline`) for that callback.
    static func awaiting(_ what: String, deadline: Duration = defaultEventDeadline,
                         _ start: @escaping @Sendable (@escaping @Sendable (Result<PersistentStack, Error>) -> Void) -> Void) async throws -> SetUpCompletion {
        let calls = Mutex(0)
        let (result, onMain) = try await withDeadline(deadline, awaiting: what) {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Result<PersistentStack, Error>, Bool), Error>) in
                start { result in
                    let onMain = DispatchQueue.getSpecific(key: mainQueueMark) == true
                    // Only the first call resumes; later ones are counted.
                    if calls.withLock({ n in n += 1; return n }) == 1 { c.resume(returning: (result, onMain)) }
                }
            }
        }
        // A second call would have been queued on the main queue with the first one.
        await MainActor.run {}
        return SetUpCompletion(result: result, onMainQueue: onMain, calls: calls.withLock { $0 })
    }
}

/// Marks the main queue, so a block can tell it runs there: under the test runner the main
/// queue is drained by a thread other than the main thread, so `Thread.isMainThread` cannot tell.
private let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
