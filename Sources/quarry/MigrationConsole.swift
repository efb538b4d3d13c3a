import Foundation
import Quarry
import QuarryTUI

/// How `quarry migrate` and `quarry browse --model NEWER` show a migration plan, ask before
/// migrating, and show a copy's progress.
enum MigrationConsole {
    /// The model versions beside a model file: a `.xcdatamodeld` or `.momd` bundle's, for
    /// migrating step by step; `nil` for other model files. Each version that does not load is
    /// named on standard error with its file and why; migrations go around it.
    static func versions(forModelAt path: String) throws -> ModelVersionHistory? {
        let url = URL(fileURLWithPath: path)
        let history: ModelVersionHistory
        switch url.pathExtension {
        case "xcdatamodeld": history = try ModelVersionHistory.load(xcodeBundleAt: url)
        case "momd": history = try ModelVersionHistory.load(compiledBundleAt: url)
        default: return nil
        }
        for skipped in history.skipped {
            FileHandle.standardError.write(Data("quarry: warning: \(ConsoleText.escapedLines(skipped.description))\n".utf8))
        }
        return history
    }

    /// Prints `plan` on `stream`, a line per change, each line's control characters escaped
    /// (names come from files).
    static func show(_ plan: MigrationPlan, on stream: FileHandle = .standardOutput) {
        stream.write(Data((ConsoleText.escapedLines(plan.description) + "\n").utf8))
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

    /// The store a migration runs on.
    enum Target {
        /// An SQLite store file.
        case sqlite(URL)
        /// A PostgreSQL store (its schema).
        case postgreSQL(PostgreSQLStoreURL)
    }

    /// What migrating `target` to `model` would do (rows counted), `nil` when it has that model.
    static func plan(_ target: Target, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        switch target {
        case .sqlite(let url): return try SQLiteStore.migrationPlan(url: url, to: model, versions: versions)
        case .postgreSQL(let url):
            return try PostgreSQLStore.migrationPlan(url: url, to: model, versions: versions)
        }
    }

    /// Migrates `target`.
    @discardableResult
    static func migrate(_ target: Target, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        switch target {
        case .sqlite(let url): return try migrate(url, to: model, versions: versions)
        case .postgreSQL(let url):
            let bar = ProgressBar()
            defer { bar.finish() }
            return try PostgreSQLStore.migrate(url: url, to: model, versions: versions) { progress in draw(progress, on: bar) }
        }
    }

    /// Migrates, drawing a progress bar on standard error when it is a terminal and the
    /// migration copies rows for more than a second.
    @discardableResult
    static func migrate(_ url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        let bar = ProgressBar()
        defer { bar.finish() }
        return try SQLiteStore.migrate(url: url, to: model, versions: versions) { progress in draw(progress, on: bar) }
    }

    private static func draw(_ progress: MigrationProgress, on bar: ProgressBar) {
        let step = progress.steps > 1 ? "step \(progress.step)/\(progress.steps) " : ""
        bar.draw(done: progress.rowsCopied, total: progress.rowsTotal, label: "\(step)rows (\(progress.table))")
    }
}
