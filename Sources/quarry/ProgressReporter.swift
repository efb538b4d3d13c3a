import Foundation
import QuarryTUI
import Synchronization

/// How a long command (`import`, `export`, `convert`, `migrate`, the demo's seed) shows its
/// progress on standard error.
///
/// - On a terminal: one line redrawn in place (`import: saving [#####.....] 50% 500000/1000000
///   rows, 81000 rows/s, ETA 6 s`), first drawn once the work has taken ``Timing/firstDraw``
///   (quick runs print nothing) and then at most every ``Timing/redraw``.
/// - When standard error is not a terminal: a plain line every ``Timing/lineInterval``
///   (`import: saving 250000/1000000 rows (25%), 81000 rows/s, ETA 9 s`) and, when any was
///   printed, a summary line at the end (`import: 1000000 rows in 12.3 s, 81000 rows/s`).
///   `QUARRY_PROGRESS_INTERVAL=SECONDS` sets the interval (0: a line per update).
/// - `--quiet`: nothing (errors are printed as ever).
///
/// The clock and the output are injected, so the formatting, the throttling and the lines are
/// tested without waiting. Updates may come from any thread (the work's), one at a time or not:
/// the state sits behind a mutex.
final class ProgressReporter: Sendable {
    /// Where the progress goes.
    enum Mode: Sendable, Equatable {
        /// A bar redrawn in place (standard error is a terminal).
        case terminal
        /// Plain periodic lines and a summary (standard error is a file or a pipe).
        case lines
        /// Nothing (`--quiet`).
        case quiet
    }

    /// When the reporter prints.
    struct Timing: Sendable {
        /// Seconds of work before the bar first shows on a terminal.
        var firstDraw: Double = 0.5
        /// Least seconds between two redraws of the bar.
        var redraw: Double = 0.2
        /// Seconds between two plain lines (the first comes after one interval).
        var lineInterval: Double = 5
    }

    private struct State {
        var phase: String?
        var phaseStart: Double
        var phaseStartDone = 0
        var done = 0
        var total: Int?
        var lastOutput: Double?
        var printedLine = false
        var barShown = false
        var finished = false
    }

    /// The command's name, which starts every line (`import`).
    let command: String
    /// What is counted (`rows`, `objects`, `tickers`).
    let unit: String
    /// Where the progress goes.
    let mode: Mode
    private let timing: Timing
    private let now: @Sendable () -> Double
    private let write: @Sendable (String) -> Void
    private let columns: @Sendable () -> Int?
    private let start: Double
    private let state: Mutex<State>

    /// A reporter writing through `write`, reading the time (in seconds, any origin) from `now`;
    /// on a terminal the bar is cut to `columns` (the terminal's width when known), so a
    /// redraw never wraps onto a second line it could not go back to.
    init(command: String, unit: String = "rows", mode: Mode, timing: Timing = Timing(),
         now: @escaping @Sendable () -> Double = ProgressReporter.monotonicSeconds,
         write: @escaping @Sendable (String) -> Void = ProgressReporter.writeToStandardError,
         columns: @escaping @Sendable () -> Int? = { nil }) {
        self.command = command
        self.unit = unit
        self.mode = mode
        self.timing = timing
        self.now = now
        self.write = write
        self.columns = columns
        let start = now()
        self.start = start
        state = Mutex(State(phaseStart: start))
    }

    /// The reporter a command uses: on standard error, a bar when it is a terminal, else plain
    /// lines (every `QUARRY_PROGRESS_INTERVAL` seconds when that is set); nothing when `quiet`.
    static func standardError(command: String, unit: String = "rows", quiet: Bool) -> ProgressReporter {
        var timing = Timing()
        if let text = ProcessInfo.processInfo.environment["QUARRY_PROGRESS_INTERVAL"], let seconds = Double(text), seconds >= 0 {
            timing.lineInterval = seconds
        }
        let mode: Mode = quiet ? .quiet : isatty(STDERR_FILENO) == 1 ? .terminal : .lines
        return ProgressReporter(command: command, unit: unit, mode: mode, timing: timing, columns: terminalColumns)
    }

    /// Seconds on a clock that never goes back.
    @Sendable static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The width of the terminal standard error is, if it is one.
    @Sendable static func terminalColumns() -> Int? {
        var window = winsize()
        let status = withUnsafeMutablePointer(to: &window) { ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), $0) }
        return status == 0 && window.ws_col > 0 ? Int(window.ws_col) : nil
    }

    /// Writes `text` to standard error, unbuffered.
    @Sendable static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Records that `done` of `total` (`nil`: not known yet) are done in `phase` (`checking`,
    /// `saving`; a new phase starts its rate afresh), and shows it when it is time to.
    func update(done: Int, total: Int?, phase: String? = nil) {
        guard mode != .quiet else { return }
        let time = now()
        let output: String? = state.withLock { state in
            guard !state.finished else { return nil }
            if phase != state.phase {
                state.phase = phase
                state.phaseStart = time
                state.phaseStartDone = done
            }
            state.done = done
            state.total = total
            switch mode {
            case .terminal:
                if let last = state.lastOutput {
                    guard time - last >= timing.redraw else { return nil }
                } else {
                    guard time - start >= timing.firstDraw else { return nil }
                }
                state.lastOutput = time
                state.barShown = true
                return "\r" + fitted(Self.bar(command: command, unit: unit, phase: state.phase, done: done, total: total,
                                              rate: Self.rate(state, at: time), width: 20)) + "\u{1B}[K"
            case .lines:
                guard time - (state.lastOutput ?? start) >= timing.lineInterval else { return nil }
                state.lastOutput = time
                state.printedLine = true
                return Self.line(command: command, unit: unit, phase: state.phase, done: done, total: total,
                                 rate: Self.rate(state, at: time)) + "\n"
            case .quiet:
                return nil
            }
        }
        if let output { write(output) }
    }

    /// Ends the progress: on a terminal, the bar (if shown) is drawn a last time and its line
    /// ended, so what is printed next starts on a line of its own; as plain lines, the summary
    /// (if any line was printed). Later updates print nothing.
    func finish() {
        guard mode != .quiet else { return }
        let time = now()
        let output: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            switch mode {
            case .terminal:
                guard state.barShown else { return nil }
                return "\r" + fitted(Self.bar(command: command, unit: unit, phase: state.phase, done: state.done, total: state.total,
                                              rate: Self.rate(state, at: time), width: 20)) + "\u{1B}[K\n"
            case .lines:
                guard state.printedLine else { return nil }
                return Self.summary(command: command, unit: unit, done: state.done, seconds: time - start) + "\n"
            case .quiet:
                return nil
            }
        }
        if let output { write(output) }
    }

    /// `line` cut to one cell less than the terminal is wide (the last column would wrap).
    private func fitted(_ line: String) -> String {
        guard let columns = columns(), columns > 1 else { return line }
        return DisplayWidth.truncate(line, toWidth: columns - 1)
    }

    private static func rate(_ state: State, at time: Double) -> Double? {
        let seconds = time - state.phaseStart
        guard seconds > 0 else { return nil }
        return Double(state.done - state.phaseStartDone) / seconds
    }

    // MARK: Formatting

    /// `import: saving [#####...............] 25% 250000/1000000 rows, 81000 rows/s, ETA 9 s`
    /// (without a total: `import: checking 250000 rows, 81000 rows/s`).
    static func bar(command: String, unit: String, phase: String?, done: Int, total: Int?, rate: Double?, width: Int) -> String {
        var text = "\(command):" + (phase.map { " \(ControlEscaping.escaped($0))" } ?? "")
        if let total, total > 0 {
            let fraction = min(1, max(0, Double(done) / Double(total)))
            let filled = Int(fraction * Double(width))
            text += " [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))]"
            text += " \(Int(fraction * 100))% \(done)/\(total) \(unit)"
        } else {
            text += " \(done) \(unit)"
        }
        return text + tail(unit: unit, done: done, total: total, rate: rate)
    }

    /// `import: saving 250000/1000000 rows (25%), 81000 rows/s, ETA 9 s` (without a total:
    /// `import: checking 250000 rows, 81000 rows/s`).
    static func line(command: String, unit: String, phase: String?, done: Int, total: Int?, rate: Double?) -> String {
        var text = "\(command):" + (phase.map { " \(ControlEscaping.escaped($0))" } ?? "")
        if let total, total > 0 {
            let percent = Int(min(1, max(0, Double(done) / Double(total))) * 100)
            text += " \(done)/\(total) \(unit) (\(percent)%)"
        } else {
            text += " \(done) \(unit)"
        }
        return text + tail(unit: unit, done: done, total: total, rate: rate)
    }

    /// `import: 1000000 rows in 12.3 s, 81000 rows/s`.
    static func summary(command: String, unit: String, done: Int, seconds: Double) -> String {
        var text = "\(command): \(done) \(unit) in \(String(format: "%.1f", seconds)) s"
        if seconds > 0 { text += ", \(Int((Double(done) / seconds).rounded())) \(unit)/s" }
        return text
    }

    /// `, 81000 rows/s, ETA 9 s`: the rate when known, the time left when the total is too.
    private static func tail(unit: String, done: Int, total: Int?, rate: Double?) -> String {
        guard let rate, rate > 0, rate.isFinite else { return "" }
        var text = ", \(Int(rate.rounded())) \(unit)/s"
        if let total, total > done { text += ", ETA \(duration((Double(total - done) / rate).rounded(.up)))" }
        return text
    }

    /// `9 s`, `2 min 5 s`, `1 h 3 min`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e9 else { return "unknown" }
        let whole = max(0, Int(seconds))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \((whole % 3600) / 60) min"
    }
}
