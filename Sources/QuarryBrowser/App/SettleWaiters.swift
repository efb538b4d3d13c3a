/// Callers waiting for a piece of the browser's work to land — a query, the full index, an
/// export, a view's background read (``Browser/fetchesSettled()`` and its kin, for tests and
/// callers that want the outcome of the last key). Each ``wait()`` returns at the next
/// ``resumeAll()``; a caller loops on its own condition. Main actor only, like the browser.
@MainActor
final class SettleWaiters {
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// No one waiting.
    nonisolated init() {}

    /// Suspends until the next ``resumeAll()``.
    func wait() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in waiting.append(done) }
    }

    /// Resumes every caller waiting now.
    func resumeAll() {
        let resumed = waiting
        waiting = []
        for waiter in resumed { waiter.resume() }
    }
}
