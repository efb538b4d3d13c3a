import Foundation

extension SQLiteStore {
    /// How an ``SQLiteStore`` opens its file.
    ///
    /// ```swift
    /// let store = try SQLiteStore(url: url, model: model, options: .init(readOnly: true, busyTimeout: 1))
    /// ```
    public struct Options: Sendable, Hashable {
        /// Open with `PRAGMA query_only`: reads work, ``SQLiteStore/save(_:resolve:)`` throws
        /// ``StoreError/readOnly(path:)``. The file must exist.
        public var readOnly: Bool
        /// How long (seconds) a write waits for another connection's write lock before failing
        /// with ``StoreError/locked(path:)``.
        public var busyTimeout: TimeInterval

        /// Creates options.
        public init(readOnly: Bool = false, busyTimeout: TimeInterval = 5) {
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
        }
    }
}
