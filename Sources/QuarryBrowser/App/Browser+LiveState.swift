import Dispatch

extension Browser {
    /// Asks for a new frame because what ``liveStatus`` or ``liveAlert`` says has changed (the
    /// importer paused on a busy store, resumed or stopped), so the status line changes by
    /// itself instead of at the next key. Callable from any thread: the frame is requested on
    /// the main queue, where the UI loop runs.
    ///
    /// ```swift
    /// importer.observeAlert { browser.liveStateDidChange() }
    /// ```
    public nonisolated func liveStateDidChange() {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.needsDisplay() }
        }
    }
}
