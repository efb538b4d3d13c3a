import Foundation
import Quarry
import QuarryTUI
import Synchronization
import Testing
@_spi(Testing) import QuarryBrowser

/// The importer's alert ("import paused: store busy") reaches the screen by itself, not at the
/// next key (issue 34, item 24): the importer's thread asks for a frame on the main queue.
@MainActor
@Suite("Browser: the importer's alert redraws the status line by itself")
struct LiveAlertRedrawTests {
    /// A terminal that hands each frame presented to the test, in order.
    final class FrameStreamTerminal: TerminalBackend {
        let size: TerminalSize
        let colorCapability = ColorCapability.indexed256
        let frames: AsyncStream<ScreenBuffer>
        private let continuation: AsyncStream<ScreenBuffer>.Continuation

        init(size: TerminalSize) {
            self.size = size
            (frames, continuation) = AsyncStream.makeStream()
        }

        func start(handler: @escaping @MainActor (TerminalEvent) -> Void) throws {}
        func present(_ buffer: ScreenBuffer) { continuation.yield(buffer) }
        func stop() { continuation.finish() }
        func copyToClipboard(_ text: String) {}
    }

    /// The importer's state as another thread changes it.
    final class Alert: Sendable {
        let text = Mutex<String?>(nil)
    }

    /// The first frame of `frames` that satisfies `predicate`; fails the test, saying what it
    /// waited for, when none comes within `timeout`.
    private func firstFrame(of frames: AsyncStream<ScreenBuffer>, within timeout: Duration, _ what: String,
                            where predicate: @escaping @Sendable (ScreenBuffer) -> Bool) async throws -> ScreenBuffer {
        let frame = try await withThrowingTaskGroup(of: ScreenBuffer?.self) { group in
            group.addTask {
                for await frame in frames where predicate(frame) { return frame }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)  // the deadline, not the wait
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let frame else {
            Issue.record("no frame with \(what) within \(timeout)")
            throw CancellationError()
        }
        return frame
    }

    @Test("an alert set on another thread is drawn without a key, and so is its end")
    func alertWithoutAKey() async throws {
        let f = try BrowserFixture()
        let alert = Alert()
        f.browser.liveAlert = { alert.text.withLock { $0 } }
        let terminal = FrameStreamTerminal(size: TerminalSize(width: 100, height: 30))
        let app = BrowserApp(browser: f.browser, backend: terminal)
        defer { app.stop() }
        try app.start()
        let first = try await firstFrame(of: terminal.frames, within: .seconds(120), "the first frame") { _ in true }
        #expect(first.lines.last?.contains("import paused") == false)

        let browser = f.browser
        Thread.detachNewThread {
            alert.text.withLock { $0 = "import paused: store busy" }
            browser.liveStateDidChange()
        }
        let paused = try await firstFrame(of: terminal.frames, within: .seconds(120), "the alert") {
            $0.lines.last?.contains("import paused: store busy") == true
        }
        #expect(paused.lines.last?.contains("row 1/30") == true)

        Thread.detachNewThread {
            alert.text.withLock { $0 = nil }
            browser.liveStateDidChange()
        }
        let resumed = try await firstFrame(of: terminal.frames, within: .seconds(120), "the alert gone") {
            $0.lines.last?.contains("import paused") == false
        }
        #expect(resumed.lines.last?.contains("row 1/30") == true)
    }
}
