import Foundation

extension CoreDataFixture {
    /// A persistent-history transaction (`ATRANSACTION`), its strings interned in
    /// `ATRANSACTIONSTRING` as Core Data does, and its changes (`ACHANGE`).
    public struct HistoryTransaction: Sendable {
        /// When it was saved (`ZTIMESTAMP`, seconds since 2001).
        public var timestamp: Date
        /// The context's transaction author (`ZAUTHORTS`).
        public var author: String?
        /// The saving app's bundle identifier (`ZBUNDLEIDTS`).
        public var bundleID: String?
        /// The saving context's name (`ZCONTEXTNAMETS`).
        public var contextName: String?
        /// The saving process (`ZPROCESSIDTS`).
        public var processID: String?
        /// Its changes, in order.
        public var changes: [HistoryChange]

        /// A transaction at `timestamp` by `author` with `changes`.
        public init(at timestamp: Date, author: String?, bundleID: String? = nil, contextName: String? = nil,
                    processID: String? = nil, changes: [HistoryChange]) {
            self.timestamp = timestamp
            self.author = author
            self.bundleID = bundleID
            self.contextName = contextName
            self.processID = processID
            self.changes = changes
        }
    }

    /// One change of a transaction: `ZCHANGETYPE` 0 insert, 1 update, 2 delete.
    public struct HistoryChange: Sendable {
        /// The kind of change, with Core Data's `NSPersistentHistoryChangeType` codes.
        public enum Kind: Int, Sendable { case insert = 0, update = 1, delete = 2 }

        /// The changed object: one of the fixture's objects, or one no longer in the store.
        public enum Target: Sendable {
            case object(String)
            case removed(entity: String, primaryKey: Int64)
        }

        /// Insert, update or delete.
        public var kind: Kind
        /// The changed object.
        public var target: Target

        /// A change of `kind` to `target`.
        public init(_ kind: Kind, _ target: Target) {
            self.kind = kind
            self.target = target
        }
    }
}
