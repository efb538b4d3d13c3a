import Foundation

extension SQLiteStore {
    /// How an ``SQLiteStore`` opens its file.
    ///
    /// ```swift
    /// let store = try SQLiteStore(url: url, model: model, options: .init(readOnly: true, busyTimeout: 1))
    /// ```
    public struct Options: Sendable {
        /// Open with `PRAGMA query_only`: reads work, ``SQLiteStore/save(_:resolve:)`` throws
        /// ``StoreError/readOnly(path:)``. The file must exist.
        public var readOnly: Bool
        /// How long (seconds) a write waits for another connection's write lock before failing
        /// with ``StoreError/locked(path:)``.
        public var busyTimeout: TimeInterval
        /// Migrate a store made with another model to the model given, on open (lightweight,
        /// inferred; see ``SQLiteStore/migrate(url:to:versions:busyTimeout:progress:isCancelled:)``). Off by
        /// default for a bare store, which then refuses with ``StoreError/modelMismatch(path:entities:)``;
        /// ``PersistentStack`` turns it on (its `automaticLightweightMigration`).
        public var migratesAutomatically: Bool
        /// The versions of the model, for migrating step by step (see ``ModelVersionHistory``).
        public var modelVersions: ModelVersionHistory?
        /// Called with the progress of a migration on open that copies rows.
        public var migrationProgress: (@Sendable (MigrationProgress) -> Void)?
        /// Whether a store this opening *creates* records persistent history (default on), and
        /// whether a store made before history existed gets its history tables when opened for
        /// writing. The choice is kept in the file, so every process agrees: it does not change
        /// what an existing store does (see ``SQLiteStore/recordsHistory``).
        public var recordsHistory: Bool
        /// The origin written with each history transaction (``HistoryTransaction/origin``), so
        /// a stack recognizes, and skips, its own saves; `nil`: the store makes its own.
        /// ``PersistentStack`` gives both its stores the same one.
        public var historyOrigin: UUID?

        /// Creates options.
        public init(
            readOnly: Bool = false, busyTimeout: TimeInterval = 5, migratesAutomatically: Bool = false,
            modelVersions: ModelVersionHistory? = nil, migrationProgress: (@Sendable (MigrationProgress) -> Void)? = nil,
            recordsHistory: Bool = true, historyOrigin: UUID? = nil
        ) {
            self.recordsHistory = recordsHistory
            self.historyOrigin = historyOrigin
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
            self.migratesAutomatically = migratesAutomatically
            self.modelVersions = modelVersions
            self.migrationProgress = migrationProgress
        }
    }
}
