/// How far a migration that copies rows has got: reported after every chunk of rows copied.
///
/// ```swift
/// try SQLiteStore.migrate(url: url, to: model) { progress in
///     print("\(progress.rowsCopied)/\(progress.rowsTotal) rows (\(progress.table))")
/// }
/// ```
public struct MigrationProgress: Sendable, Hashable {
    /// Rows copied so far, in the current step.
    public var rowsCopied: Int
    /// Rows the current step copies in all.
    public var rowsTotal: Int
    /// The table being filled.
    public var table: String
    /// The step being run (1-based).
    public var step: Int
    /// The number of steps (more than one through a versioned bundle's versions).
    public var steps: Int

    /// The fraction done in the current step, from 0 to 1.
    public var fraction: Double { rowsTotal == 0 ? 1 : Double(rowsCopied) / Double(rowsTotal) }
}

/// Counts copied rows and calls the caller's handler; lives on the migrating thread only.
final class MigrationProgressReporter {
    private let handler: ((MigrationProgress) -> Void)?
    private let isCancelled: (() -> Bool)?
    private var current = MigrationProgress(rowsCopied: 0, rowsTotal: 0, table: "", step: 1, steps: 1)

    init(_ handler: ((MigrationProgress) -> Void)?, isCancelled: (() -> Bool)? = nil) {
        self.handler = handler
        self.isCancelled = isCancelled
    }

    /// Starts step `step` of `steps`, which copies `total` rows.
    func begin(step: Int, of steps: Int, total: Int) {
        current = MigrationProgress(rowsCopied: 0, rowsTotal: total, table: "", step: step, steps: steps)
    }

    /// Records `rows` more rows copied into `table`.
    /// - Throws: `CancellationError` when the caller asks the migration to stop: the
    ///   migration's transaction is then rolled back.
    func copied(_ rows: Int, table: String) throws {
        current.rowsCopied += rows
        current.table = table
        handler?(current)
        if isCancelled?() == true { throw CancellationError() }
    }
}
