/// The terminal as the UI loop sees it: a size, a way to show a frame, and a stream of events.
///
/// The loop runs on the main actor (the main dispatch queue). The curses backend is the real
/// implementation; ``InMemoryTerminal`` records frames for tests.
@MainActor
public protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: TerminalSize { get }
    /// The colours this terminal shows (decided at start from `TERM`, `COLORTERM` and `NO_COLOR`).
    var colorCapability: ColorCapability { get }
    /// Takes over the terminal and starts delivering events to `handler` on the main actor.
    func start(handler: @escaping @MainActor (TerminalEvent) -> Void) throws
    /// Shows `buffer`, sending only the cells that differ from the previous frame.
    func present(_ buffer: ScreenBuffer)
    /// Gives the terminal back exactly as it was found. Safe to call more than once.
    func stop()
    /// Puts `text` on the system clipboard through the terminal (OSC 52, ``ClipboardSequence``).
    func copyToClipboard(_ text: String)
}

/// A backend that keeps frames in memory: for tests and for rendering without a terminal.
@MainActor
public final class InMemoryTerminal: TerminalBackend {
    /// The size reported to the UI; change it and send ``resize(to:)`` to simulate SIGWINCH.
    public private(set) var size: TerminalSize
    /// The colour capability reported to the UI.
    public var colorCapability: ColorCapability
    /// Every frame presented, oldest first.
    public private(set) var frames: [ScreenBuffer] = []
    /// Every OSC 52 sequence sent (``copyToClipboard(_:)``), oldest first.
    public private(set) var clipboardSequences: [String] = []
    /// Whether ``start(handler:)`` ran and ``stop()`` has not.
    public private(set) var isRunning = false
    private var handler: (@MainActor (TerminalEvent) -> Void)?

    /// Creates a terminal of `size`.
    public init(size: TerminalSize, colorCapability: ColorCapability = .indexed256) {
        self.size = size
        self.colorCapability = colorCapability
    }

    /// The last frame presented.
    public var screen: ScreenBuffer? { frames.last }

    /// Starts delivering events.
    public func start(handler: @escaping @MainActor (TerminalEvent) -> Void) throws {
        self.handler = handler
        isRunning = true
    }

    /// Records the frame.
    public func present(_ buffer: ScreenBuffer) { frames.append(buffer) }

    /// Records the OSC 52 sequence a terminal would receive.
    public func copyToClipboard(_ text: String) { clipboardSequences.append(ClipboardSequence.make(for: text)) }

    /// Stops delivering events.
    public func stop() {
        isRunning = false
        handler = nil
    }

    /// Delivers `key` as if typed.
    public func type(_ key: Key) { handler?(.key(key)) }

    /// Delivers each character of `text` as a typed key.
    public func type(_ text: String) {
        for character in text { handler?(.key(.character(character))) }
    }

    /// Delivers `text` as one bracketed paste.
    public func paste(_ text: String) { handler?(.paste(text)) }

    /// Changes the size and delivers a resize event.
    public func resize(to newSize: TerminalSize) {
        size = newSize
        handler?(.resize(newSize))
    }

    /// Delivers a mouse action at (`x`, `y`), 0-based.
    public func mouse(_ action: MouseEvent.Action, x: Int, y: Int) { handler?(.mouse(MouseEvent(action, x: x, y: y))) }

    /// Delivers an arbitrary event.
    public func send(_ event: TerminalEvent) { handler?(event) }
}
