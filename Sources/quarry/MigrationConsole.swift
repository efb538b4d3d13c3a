import Foundation
import Quarry
import QuarryTUI

/// How `quarry migrate` and `quarry browse --model NEWER` show a migration plan, ask before
/// migrating, and show a copy's progress.
enum MigrationConsole {
    /// The model versions beside a model file: a `.xcdatamodeld` bundle's, for migrating step by
    /// step; `nil` for other model files.
    static func versions(forModelAt path: String) throws -> ModelVersionHistory? {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension == "xcdatamodeld" else { return nil }
        return try ModelVersionHistory.load(xcodeBundleAt: url)
    }

    /// Prints `plan` on `stream` with its text's control characters escaped (names come from files).
    static func show(_ plan: MigrationPlan, on stream: FileHandle = .standardOutput) {
        stream.write(Data((ControlEscaping.escaped(plan.description) + "\n").utf8))
    }

    /// Asks `question [y/N]` on standard error and reads the answer from standard input: only
    /// `y` or `yes` agrees; end of input is no.
    static func confirm(_ question: String) -> Bool {
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine(strippingNewline: true) else {
            FileHandle.standardError.write(Data("\n".utf8))
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Migrates, drawing a progress bar on standard error when it is a terminal and the
    /// migration copies rows.
    @discardableResult
    static func migrate(_ url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        defer { bar.finish() }
        return try SQLiteStore.migrate(url: url, to: model, versions: versions) { bar.draw($0) }
    }

    /// A one-line progress bar redrawn in place on standard error.
    final class ProgressBar {
        private let enabled: Bool
        private var drawn = false

        init(enabled: Bool) { self.enabled = enabled }

        func draw(_ progress: MigrationProgress) {
            guard enabled else { return }
            let width = 30
            let filled = Int(progress.fraction * Double(width))
            let step = progress.steps > 1 ? "step \(progress.step)/\(progress.steps) " : ""
            let line = "\r\(step)[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] "
                + "\(Int(progress.fraction * 100))% \(progress.rowsCopied)/\(progress.rowsTotal) rows (\(ControlEscaping.escaped(progress.table)))"
            FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
            drawn = true
        }

        func finish() {
            if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
