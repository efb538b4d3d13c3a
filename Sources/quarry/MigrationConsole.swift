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

    /// Migrates `target`, showing the copies' progress on `reporter`; `isCancelled` is asked
    /// after each chunk of rows copied (yes: the migration is rolled back, `CancellationError`).
    @discardableResult
    static func migrate(_ target: Target, to model: ManagedObjectModel, versions: ModelVersionHistory?,
                        reporter: ProgressReporter, isCancelled: (() -> Bool)? = nil) throws -> MigrationPlan? {
        defer { reporter.finish() }
        switch target {
        case .sqlite(let url):
            return try SQLiteStore.migrate(url: url, to: model, versions: versions,
                                             progress: { show($0, on: reporter) }, isCancelled: isCancelled)
        case .postgreSQL(let url):
            return try PostgreSQLStore.migrate(url: url, to: model, versions: versions,
                                             progress: { show($0, on: reporter) }, isCancelled: isCancelled)
        }
    }

    /// Migrates the SQLite store at `url`, showing its progress on standard error (a bar on a
    /// terminal, once the copy has taken a moment).
    @discardableResult
    static func migrate(_ url: URL, to model: ManagedObjectModel, versions: ModelVersionHistory?) throws -> MigrationPlan? {
        try migrate(.sqlite(url), to: model, versions: versions, reporter: .standardError(command: "migrate", quiet: false))
    }

    private static func show(_ progress: MigrationProgress, on reporter: ProgressReporter) {
        let step = progress.steps > 1 ? "step \(progress.step)/\(progress.steps) " : ""
        reporter.update(done: progress.rowsCopied, total: progress.rowsTotal, phase: "\(step)copying \(progress.table)")
    }
}
