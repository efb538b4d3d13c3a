import Dispatch
import QuarryTUI

/// The UI loop: feeds a ``TerminalBackend``'s events to a ``Browser`` and presents its frames.
///
/// Event-driven on the main queue: keys, signals and live merges each schedule at most one frame,
/// frames are coalesced to at most 60 per second, and nothing runs while nothing changes (a row
/// highlight schedules one wake-up for when it ends).
@MainActor
public final class BrowserApp {
    /// The browser driven.
    public let browser: Browser
    /// The terminal.
    public let backend: TerminalBackend
    /// The shortest time between two frames (1/60 s).
    public var frameInterval = 1.0 / 60
    /// Frames presented so far.
    public private(set) var framesPresented = 0
    /// Called once after the terminal was restored, when the user quit.
    public var onQuit: (@MainActor () -> Void)?
    private var frameScheduled = false
    private var lastFrame = 0.0
    private var wakeAt: Double?
    private var stopped = false

    /// Creates the loop for `browser` on `backend`.
    public init(browser: Browser, backend: TerminalBackend) {
        self.browser = browser
        self.backend = backend
    }

    /// Takes over the terminal, draws the first frame and starts handling events.
    public func start() throws {
        browser.onNeedsDisplay = { [weak self] in self?.requestFrame() }
        try backend.start { [weak self] event in self?.handle(event) }
        // The terminal's colours are known once it started: draw the theme as it can show it.
        browser.colorCapability = backend.colorCapability
        browser.theme = browser.configuration.theme.adapted(to: backend.colorCapability)
        if browser.copyToClipboard == nil {
            browser.copyToClipboard = { [weak backend] text in backend?.copyToClipboard(text) }
        }
        drawFrame()
    }

    /// Whether a frame is scheduled (tests check that an idle browser schedules nothing).
    public var hasScheduledWork: Bool { frameScheduled || wakeAt != nil }

    private func handle(_ event: TerminalEvent) {
        browser.handle(event)
        if browser.wantsQuit {
            stop()
        } else if case .resize = event {
            drawFrame()
        } else {
            requestFrame()
        }
    }

    /// Restores the terminal and calls ``onQuit``. Safe to call more than once.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        backend.stop()
        onQuit?()
    }

    /// Schedules a frame, no sooner than ``frameInterval`` after the last one.
    public func requestFrame() {
        guard !frameScheduled, !stopped else { return }
        frameScheduled = true
        let delay = max(0, lastFrame + frameInterval - ResultsTable.uptime())
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [weak self] in
            MainActor.assumeIsolated { self?.drawFrame() }
        }
    }

    /// Renders and presents a frame now.
    public func drawFrame() {
        frameScheduled = false
        guard !stopped else { return }
        lastFrame = ResultsTable.uptime()
        let size = backend.size
        browser.prepareFrame(size: size)
        backend.present(browser.render(size: size))
        framesPresented += 1
        scheduleHighlightExpiry()
    }

    private func scheduleHighlightExpiry() {
        guard let expiry = browser.nextHighlightExpiry() else { return }
        if let wakeAt, wakeAt <= expiry { return }
        wakeAt = expiry
        let delay = max(0, expiry - ResultsTable.uptime()) + 0.01
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.wakeAt = nil
                self.requestFrame()
            }
        }
    }
}
