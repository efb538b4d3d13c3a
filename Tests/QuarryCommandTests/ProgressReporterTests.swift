import Foundation
@testable import quarry
import QuarryTestSupport
import Synchronization
import Testing

/// ``ProgressReporter`` with a clock the test moves and an output it keeps: the bar's and the
/// lines' wording, the rate and the time left, when it draws and when it stays silent.
@Suite("Progress reporter")
struct ProgressReporterTests {
    /// A clock the test sets, and everything written.
    final class Harness: Sendable {
        let time = Mutex(100.0)
        let written = Mutex<[String]>([])

        func reporter(_ mode: ProgressReporter.Mode, command: String = "import",
                      timing: ProgressReporter.Timing = .init()) -> ProgressReporter {
            ProgressReporter(command: command, mode: mode, timing: timing,
                             now: { self.time.withLock { $0 } }, write: { text in self.written.withLock { $0.append(text) } })
        }

        /// Moves the clock to `seconds` after the start.
        func at(_ seconds: Double) { time.withLock { $0 = 100 + seconds } }
        var output: [String] { written.withLock { $0 } }
    }

    @Test("the time left reads as seconds, minutes or hours")
    func durations() {
        #expect(ProgressReporter.duration(0) == "0 s")
        #expect(ProgressReporter.duration(9) == "9 s")
        #expect(ProgressReporter.duration(125) == "2 min 5 s")
        #expect(ProgressReporter.duration(3 * 3600 + 4 * 60 + 7) == "3 h 4 min")
        #expect(ProgressReporter.duration(.infinity) == "unknown")
    }

    @Test("a plain line gives done/total, percent, rate and ETA")
    func lineWording() {
        let line = ProgressReporter.line(command: "import", unit: "rows", phase: "saving", done: 250_000, total: 1_000_000, rate: 81_000)
        #expect(line == "import: saving 250000/1000000 rows (25%), 81000 rows/s, ETA 10 s")
        let unknown = ProgressReporter.line(command: "import", unit: "rows", phase: "checking", done: 5000, total: nil, rate: 2500.4)
        #expect(unknown == "import: checking 5000 rows, 2500 rows/s")
        let noRate = ProgressReporter.line(command: "export", unit: "rows", phase: nil, done: 0, total: 10, rate: nil)
        #expect(noRate == "export: 0/10 rows (0%)")
    }

    @Test("the bar fills with the fraction done")
    func barWording() {
        let bar = ProgressReporter.bar(command: "export", unit: "rows", phase: nil, done: 50, total: 100, rate: 10, width: 10)
        #expect(bar == "export: [#####.....] 50% 50/100 rows, 10 rows/s, ETA 5 s")
        let done = ProgressReporter.bar(command: "export", unit: "rows", phase: nil, done: 100, total: 100, rate: 10, width: 10)
        #expect(done == "export: [##########] 100% 100/100 rows, 10 rows/s")
    }

    @Test("a phase name is escaped: no control character reaches the terminal")
    func escapedPhase() {
        let line = ProgressReporter.line(command: "migrate", unit: "rows", phase: "copying T\u{1B}[2J", done: 1, total: nil, rate: nil)
        #expect(!line.contains("\u{1B}"))
    }

    @Test("the summary gives the count, the time and the rate")
    func summaryWording() {
        #expect(ProgressReporter.summary(command: "import", unit: "rows", done: 1000, seconds: 2) == "import: 1000 rows in 2.0 s, 500 rows/s")
    }

    @Test("on a terminal nothing is drawn before the first delay, so a quick run prints nothing")
    func quickRunPrintsNothing() {
        let harness = Harness()
        let reporter = harness.reporter(.terminal)
        harness.at(0.1)
        reporter.update(done: 10, total: 100)
        harness.at(0.3)
        reporter.update(done: 100, total: 100)
        reporter.finish()
        #expect(harness.output.isEmpty)
    }

    @Test("on a terminal the bar is redrawn in place, at most every redraw interval, and its line ended at the finish")
    func terminalRedrawsAreThrottled() {
        let harness = Harness()
        let reporter = harness.reporter(.terminal, timing: .init(firstDraw: 0.5, redraw: 0.2, lineInterval: 5))
        harness.at(0.5)
        reporter.update(done: 10, total: 100)
        harness.at(0.6)
        reporter.update(done: 20, total: 100)  // too soon after the last draw
        harness.at(0.7)
        reporter.update(done: 30, total: 100)
        harness.at(1.0)
        reporter.finish()
        let output = harness.output
        #expect(output.count == 3, "\(output)")
        #expect(output[0].hasPrefix("\r") && output[0].hasSuffix("\u{1B}[K"))
        #expect(output[0].contains("10/100 rows"))
        #expect(output[1].contains("30/100 rows"), "\(output)")
        // The finish draws the last state and ends the line.
        #expect(output[2].contains("30/100 rows") && output[2].hasSuffix("\n"))
        reporter.update(done: 40, total: 100)
        #expect(harness.output.count == 3)
    }

    @Test("the rate counts from the start of the phase; a new phase starts it afresh")
    func rateFollowsThePhase() {
        let harness = Harness()
        let reporter = harness.reporter(.lines, timing: .init(firstDraw: 0.5, redraw: 0.2, lineInterval: 2))
        harness.at(2)
        reporter.update(done: 2000, total: nil, phase: "checking")
        #expect(harness.output.last == "import: checking 2000 rows\n")  // the phase began just now
        harness.at(4)
        reporter.update(done: 4000, total: nil, phase: "checking")
        #expect(harness.output.last == "import: checking 4000 rows, 1000 rows/s\n")
        harness.at(6)
        reporter.update(done: 0, total: 4000, phase: "saving")
        harness.at(8)
        reporter.update(done: 1000, total: 4000, phase: "saving")
        #expect(harness.output.last == "import: saving 1000/4000 rows (25%), 500 rows/s, ETA 6 s\n", "\(harness.output)")
    }

    @Test("without a terminal a plain line comes every interval, and a summary at the end")
    func plainLines() {
        let harness = Harness()
        let reporter = harness.reporter(.lines, command: "export", timing: .init(firstDraw: 0.5, redraw: 0.2, lineInterval: 5))
        for second in 1...12 {
            harness.at(Double(second))
            reporter.update(done: second * 100, total: 1200)
        }
        reporter.finish()
        #expect(harness.output == [
            "export: 500/1200 rows (41%), 100 rows/s, ETA 7 s\n",
            "export: 1000/1200 rows (83%), 100 rows/s, ETA 2 s\n",
            "export: 1200 rows in 12.0 s, 100 rows/s\n",
        ])
    }

    @Test("without a terminal a run shorter than the interval prints nothing, not even a summary")
    func quickPlainRun() {
        let harness = Harness()
        let reporter = harness.reporter(.lines)
        harness.at(1)
        reporter.update(done: 10, total: 10)
        reporter.finish()
        #expect(harness.output.isEmpty)
    }

    @Test("on a terminal the bar is cut to the terminal's width, so a redraw never wraps")
    func barFitsTheTerminal() {
        let harness = Harness()
        let reporter = ProgressReporter(command: "migrate", mode: .terminal, timing: .init(firstDraw: 0, redraw: 0, lineInterval: 5),
                                        now: { harness.time.withLock { $0 } }, write: { text in harness.written.withLock { $0.append(text) } },
                                        columns: { 40 })
        harness.at(1)
        reporter.update(done: 5, total: 10, phase: "step 2/3 copying AVeryLongEntityNameIndeed")
        let drawn = harness.output.first ?? ""
        let visible = drawn.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\u{1B}[K", with: "")
        #expect(visible.count == 39, "\(visible)")
        #expect(visible.hasPrefix("migrate: step 2/3 copying") && visible.hasSuffix("…"))
    }

    @Test("--quiet prints nothing at all")
    func quiet() {
        let harness = Harness()
        let reporter = harness.reporter(.quiet, timing: .init(firstDraw: 0, redraw: 0, lineInterval: 0))
        harness.at(100)
        reporter.update(done: 10, total: 10)
        reporter.finish()
        #expect(harness.output.isEmpty)
    }
}
