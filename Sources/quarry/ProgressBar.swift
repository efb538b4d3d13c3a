import Foundation
import QuarryTUI

/// A one-line progress bar redrawn in place on standard error, for commands whose work can take
/// a while: drawn only when standard error is a terminal and the work has taken more than a
/// second (so quick runs and scripts print nothing extra). Used from one thread at a time.
final class ProgressBar: @unchecked Sendable {
    // State is touched only by the thread running the work (its progress callbacks) and,
    // after the work, by the caller's `finish()`: never at the same time.
    private let enabled: Bool
    private let start = Date()
    private var drawn = false

    /// A bar that draws when standard error is a terminal (or when `force`d, for tests).
    init(force: Bool = false) { enabled = force || isatty(STDERR_FILENO) == 1 }

    /// Draws `done` of `total` with `label` (e.g. the table), once a second has passed.
    func draw(done: Int, total: Int?, label: String) {
        guard enabled, drawn || Date().timeIntervalSince(start) >= 1 else { return }
        let width = 30
        let line: String
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int(fraction * Double(width))
            line = "\r[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] "
                + "\(Int(fraction * 100))% \(done)/\(total) \(ControlEscaping.escaped(label))"
        } else {
            line = "\r\(done) \(ControlEscaping.escaped(label))"
        }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
        drawn = true
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
