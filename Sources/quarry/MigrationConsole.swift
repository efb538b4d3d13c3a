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
    /// migration copies rows for more than a second.
    @discardableResult
    static func migrate(_ url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        let bar = ProgressBar()
        defer { bar.finish() }
        return try SQLiteStore.migrate(url: url, to: model, versions: versions) { progress in
            let step = progress.steps > 1 ? "step \(progress.step)/\(progress.steps) " : ""
            bar.draw(done: progress.rowsCopied, total: progress.rowsTotal, label: "\(step)rows (\(progress.table))")
        }
    }
}
