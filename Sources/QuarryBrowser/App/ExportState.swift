import Foundation
import Quarry

/// An export of the view running off the main queue.
@MainActor
struct PendingExport {
    /// The file being written.
    var path: String
    /// The operation (Esc cancels it).
    var operation: ExportOperation
    /// Rows written so far and the total, as last reported.
    var progress: ExportOperation.Progress?
}

/// The browser's export of the view (`x`, see ``Browser+Export``): the one running, who waits
/// for it, and the queue exports run on. Main actor only, like the browser.
@MainActor
struct ExportState {
    /// The export running off the main queue, if any.
    var pending: PendingExport?
    /// Callers of ``Browser/exportsSettled()`` waiting for it to end.
    let waiters = SettleWaiters()
    /// Where exports run (one at a time); made by the first export, not at launch, where
    /// making an `OperationQueue` delayed the first screen by a third of a millisecond.
    private(set) lazy var queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Quarry.BrowserExport"
        return queue
    }()
}
