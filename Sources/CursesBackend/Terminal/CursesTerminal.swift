import CNCurses
import Dispatch
import Foundation
import QuarryTUI

/// The real terminal: draws ``ScreenBuffer`` frames with ncurses and turns keys and signals into
/// ``TerminalEvent``s. The only code in Quarry that touches the terminal.
///
/// Everything happens on the main actor (the main dispatch queue): input arrives through a
/// read source on the terminal, SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP and SIGCONT
/// through signal sources, and the handler given to ``start(handler:)`` is called between them.
///
/// ```swift
/// let terminal = CursesTerminal()
/// try terminal.start { event in
///     switch event {
///     case .terminate:
///         terminal.stop()
///         exit(0)
///     default:
///         state.update(with: event)
///         terminal.present(render(state, size: terminal.size))
///     }
/// }
/// terminal.present(render(state, size: terminal.size))
/// dispatchMain()
/// ```
///
/// The terminal is given back by ``stop()``; an `atexit` hook and
/// ``restoreTerminalIfActive()`` cover every other way out of the process.
@MainActor
public final class CursesTerminal: TerminalBackend {
    /// The current size in cells (updated before each ``TerminalEvent/resize(_:)`` is delivered).
    public internal(set) var size: TerminalSize
    /// The colours frames are drawn with: what the environment allows (see ``start(handler:)``)
    /// capped by what curses can draw on this terminal type.
    public private(set) var colorCapability: ColorCapability = .none
    /// Whether frames are wrapped in synchronized-output mode (DEC 2026).
    public private(set) var usesSynchronizedOutput = false

    let environment: [String: String]
    var handler: (@MainActor (TerminalEvent) -> Void)?
    var screen: OpaquePointer?
    var ttyFile: UnsafeMutablePointer<FILE>?
    var ttyDescriptor: Int32 = -1
    var readSource: (any DispatchSourceRead)?
    var signalSources: [any DispatchSourceSignal] = []
    var savedSignalActions: [Int32: sigaction] = [:]
    var isSuspended = false

    var previousFrame: ScreenBuffer?
    var needsFullRedraw = true
    var colors = CursesColorResolver(terminalColors: 0, usesColor: false, supportsDefaultColors: false)
    var pairs = ColorPairTable(pairCount: 1)
    var glyphScratch: [wchar_t] = []
    /// Writes the grapheme clusters curses cannot hold in a cell (read from terminfo at start).
    var clusterOverlay: ClusterOverlay?
    /// Whether cells are drawn with ``AsciiFallback`` glyphs (the locale is not UTF-8).
    public private(set) var usesAsciiGlyphs = false
    /// The text of a bracketed paste being received (between `ESC[200~` and `ESC[201~`).
    var pasteBuffer: String?
    /// The rest of that paste, read straight from the terminal (see ``PasteCollector``).
    var pasteCollector: PasteCollector?
    /// Whether clicks and the wheel are reported (``MouseReporting``).
    public let reportsMouse: Bool
    /// The body of a mouse report being received (after `ESC[<`, up to its `M` or `m`).
    var mouseBuffer: String?

    /// The device curses draws on and reads from.
    static let ttyPath = "/dev/tty"

    /// Creates a terminal that has not taken over anything yet; `environment` decides colours,
    /// synchronized output and the locale fallback.
    /// With `mouse`, clicks and the wheel arrive as ``TerminalEvent/mouse(_:)`` (the terminal
    /// then no longer selects text on a plain drag; Shift-drag still does in most terminals).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, mouse: Bool = false) {
        self.environment = environment
        self.reportsMouse = mouse
        self.size = TerminalSize(width: 80, height: 24)
    }

    /// Whether standard input and standard output are both terminals, so a full-screen UI can run.
    ///
    /// Commands check this first and refuse to start the browser with a clear message when the
    /// output is piped or the input redirected.
    public nonisolated static func isInteractive() -> Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The version of the ncurses library in use, e.g. `ncurses 6.4.20221231`.
    public nonisolated static var cursesVersion: String { String(cString: curses_version()) }

    /// Gives the terminal back if a ``CursesTerminal`` still holds it; otherwise does nothing.
    ///
    /// Callable from any thread and from `atexit` (it is installed there by ``start(handler:)``);
    /// call it from the application's own fatal-error path before printing a message, because a
    /// Swift trap does not run `atexit` hooks. It is not async-signal-safe. Idempotent, and a
    /// later ``stop()`` still releases the rest.
    public nonisolated static func restoreTerminalIfActive() {
        TerminalRestoration.restoreIfActive()
    }

    /// Whether ``start(handler:)`` succeeded and ``stop()`` has not been called.
    public var isRunning: Bool { screen != nil }

    /// Takes over the terminal and starts delivering events to `handler` on the main actor.
    ///
    /// Opens `/dev/tty` (so it works even with standard output redirected), applies the user's
    /// locale, enters curses in cbreak mode without echo, with keypad decoding, a 25 ms Escape
    /// delay, no XON/XOFF flow control (Ctrl-S and Ctrl-Q reach the application), and the cursor
    /// hidden, on the alternate screen. Ctrl-C and Ctrl-Z still raise signals, which arrive as
    /// events. Colours: `NO_COLOR` turns them off, `COLORTERM=truecolor` asks for 24-bit, else
    /// the terminfo colour count decides.
    ///
    /// - Throws: ``CursesTerminalError`` when there is no terminal, `TERM` is unknown, or another
    ///   ``CursesTerminal`` is running.
    public func start(handler: @escaping @MainActor (TerminalEvent) -> Void) throws {
        guard screen == nil, !TerminalRestoration.isActive else { throw CursesTerminalError.alreadyActive }
        TerminalLocale.apply(environment: environment)
        usesAsciiGlyphs = !TerminalLocale.isUTF8

        let descriptor = open(Self.ttyPath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CursesTerminalError.cannotOpenTerminal(path: Self.ttyPath, errno: errno) }
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0, let file = fdopen(descriptor, "r+") else {
            close(descriptor)
            throw CursesTerminalError.notATerminal(path: Self.ttyPath)
        }

        // A terminal that cannot move the cursor (TERM=dumb) is refused before anything is sent.
        var status: Int32 = 0
        let type = environment["TERM"] ?? ""
        guard setupterm(type.isEmpty ? nil : type, descriptor, &status) == OK else {
            fclose(file)
            throw CursesTerminalError.unknownTerminalType(type)
        }
        let cup = tigetstr("cup")
        guard let cup, Int(bitPattern: cup) != -1 else {
            fclose(file)
            throw CursesTerminalError.noCursorAddressing(type)
        }

        // Ignored before newterm so curses installs no handlers of its own for these signals;
        // the dispatch sources installed below deliver them instead.
        ignoreHandledSignals()
        guard let newScreen = newterm(nil, file, file) else {
            restoreSignalActions()
            fclose(file)
            throw CursesTerminalError.unknownTerminalType(environment["TERM"] ?? "")
        }
        set_term(newScreen)
        screen = newScreen
        ttyFile = file
        ttyDescriptor = descriptor
        self.handler = handler
        TerminalRestoration.begin(.init(ttyDescriptor: descriptor, originalSettings: original))

        enterProgramMode()
        enableInputModes()
        configureColors()
        usesSynchronizedOutput = SynchronizedOutput.isSupported(environment: environment)
        clusterOverlay = ClusterOverlay()
        size = currentCursesSize()
        previousFrame = nil
        needsFullRedraw = true

        installSignalSources()
        installInputSource()
    }

    /// Gives the terminal back exactly as it was found. Safe to call more than once.
    ///
    /// Cancels the input and signal sources, ends curses mode (leaving the alternate screen and
    /// showing the cursor), restores the terminal settings saved at start and the previous
    /// signal dispositions. No event is delivered after it returns.
    public func stop() {
        guard let currentScreen = screen else { return }
        readSource?.cancel()
        readSource = nil
        for source in signalSources { source.cancel() }
        signalSources = []
        handler = nil

        TerminalRestoration.restoreIfActive()
        delscreen(currentScreen)
        screen = nil
        if let file = ttyFile { fclose(file) }
        ttyFile = nil
        ttyDescriptor = -1
        restoreSignalActions()
        previousFrame = nil
        isSuspended = false
    }

    /// Puts `text` on the system clipboard with an OSC 52 sequence written to the terminal.
    public func copyToClipboard(_ text: String) {
        guard isRunning else { return }
        TerminalOutput.send(ttyDescriptor, ClipboardSequence.make(for: text))
    }

    /// Turns on bracketed paste, and mouse reporting when asked for (at start and on resume).
    func enableInputModes() {
        BracketedPaste.enable(descriptor: ttyDescriptor)
        if reportsMouse { MouseReporting.enable(descriptor: ttyDescriptor) }
    }

    /// Turns both off before the terminal is handed to anything else.
    func disableInputModes() {
        BracketedPaste.disable(descriptor: ttyDescriptor)
        MouseReporting.disable(descriptor: ttyDescriptor)
    }

    /// Leaves curses mode, runs `body` (which may print to the normal screen or run a child
    /// process such as an editor), then takes the terminal back and repaints the last frame.
    public func suspendForOutput(_ body: () -> Void) {
        guard isRunning else {
            body()
            return
        }
        disableInputModes()
        endwin()  // restores the settings found at start ("shell mode")
        body()
        fflush(nil)
        resumeProgramMode()
        enableInputModes()
    }

    // MARK: - Set-up steps

    /// cbreak (keeps ISIG: Ctrl-C and Ctrl-Z raise signals), no echo, keypad decoding, Return kept
    /// as CR, non-blocking reads, a hidden cursor, and flow control off.
    private func enterProgramMode() {
        set_escdelay(25)
        BracketedPaste.defineKeys()
        MouseReporting.defineKeys()
        cbreak()
        noecho()
        nonl()
        let window = quarry_stdscr()
        keypad(window, true)
        nodelay(window, true)
        intrflush(window, false)
        curs_set(0)

        // cbreak leaves IXON on, which would swallow Ctrl-S and Ctrl-Q, and IEXTEN, which would
        // swallow Ctrl-V. def_prog_mode records the result so curses restores it after endwin.
        var settings = termios()
        if tcgetattr(ttyDescriptor, &settings) == 0 {
            settings.c_iflag &= ~tcflag_t(IXON)
            settings.c_lflag &= ~tcflag_t(IEXTEN)
            tcsetattr(ttyDescriptor, TCSANOW, &settings)
        }
        def_prog_mode()
    }

    private func configureColors() {
        let terminfoColors = Int(tigetnum("colors"))
        var capability = ColorCapability.detect(environment: environment, terminalColors: max(0, terminfoColors))
        guard capability != .none, has_colors() else {
            colorCapability = .none
            colors = CursesColorResolver(terminalColors: 0, usesColor: false, supportsDefaultColors: true)
            pairs = ColorPairTable(pairCount: 1)
            return
        }
        start_color()
        let supportsDefault = use_default_colors() == OK
        colors = CursesColorResolver(terminalColors: Int(quarry_colors()), usesColor: true, supportsDefaultColors: supportsDefault)
        pairs = ColorPairTable(pairCount: Int(quarry_color_pairs()))
        // Report what is actually drawn, so themes downgrade colours themselves (better than
        // this backend's nearest-colour safety net).
        if capability == .truecolor, !colors.isDirectColor {
            capability = colors.terminalColors >= 256 ? .indexed256 : .ansi16
        }
        colorCapability = capability
    }

    func currentCursesSize() -> TerminalSize {
        let window = quarry_stdscr()
        return TerminalSize(width: Int(quarry_getmaxx(window)), height: Int(quarry_getmaxy(window)))
    }

    /// Re-enters program mode after endwin (suspend, output, SIGCONT) and repaints everything.
    func resumeProgramMode() {
        reset_prog_mode()
        clearok(quarry_curscr(), true)
        needsFullRedraw = true
        doupdate()
    }
}
