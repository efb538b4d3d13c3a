import Foundation

/// What one object's part of a saved transaction was.
public enum HistoryChangeType: String, Sendable, Codable {
    /// The object was inserted.
    case insert
    /// Some of the object's values changed.
    case update
    /// The object was deleted.
    case delete
}

/// One object's change in a history transaction (Core Data's `NSPersistentHistoryChange`).
public struct HistoryChange: Sendable, Equatable {
    /// The object changed.
    public var objectID: ObjectID
    /// Inserted, updated or deleted.
    public var type: HistoryChangeType
    /// The properties an update changed, by name (empty for inserts and deletes).
    public var changedKeys: [String]
    /// For a delete: the values of the entity's attributes marked
    /// `preservesValueInHistoryOnDeletion`, by name.
    public var tombstone: [String: Value]

    /// A change of `objectID`.
    public init(objectID: ObjectID, type: HistoryChangeType, changedKeys: [String] = [], tombstone: [String: Value] = [:]) {
        self.objectID = objectID
        self.type = type
        self.changedKeys = changedKeys
        self.tombstone = tombstone
    }
}

/// One save, as persistent history recorded it (Core Data's `NSPersistentHistoryTransaction`).
public struct HistoryTransaction: Sendable, Equatable {
    /// Its position in the history.
    public var token: HistoryToken
    /// When it was committed.
    public var timestamp: Date
    /// Who saved: the context's name, or the process label when it has none.
    public var author: String?
    /// The stack (or bare store) that wrote it: a stack skips its own transactions when it
    /// merges history, since it merged them in process already.
    public var origin: UUID
    /// The writing process's ID.
    public var processID: Int32
    /// Every object it inserted, updated or deleted.
    public var changes: [HistoryChange]

    /// A transaction.
    public init(token: HistoryToken, timestamp: Date, author: String?, origin: UUID, processID: Int32, changes: [HistoryChange]) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.origin = origin
        self.processID = processID
        self.changes = changes
    }
}

/// What a history fetch found.
public struct HistoryFetchResult: Sendable {
    /// The transactions after the token asked for, oldest first.
    public var transactions: [HistoryTransaction]
    /// Whether pruning deleted a transaction newer than the token asked for (a `nil` token
    /// counts as 0; the store keeps the newest pruned token): the caller missed changes and
    /// must re-fetch what it shows.
    public var isExpired: Bool
    /// Whether more transactions follow (the fetch stopped at its limit).
    public var hasMore: Bool

    /// A result.
    public init(transactions: [HistoryTransaction], isExpired: Bool = false, hasMore: Bool = false) {
        self.transactions = transactions
        self.isExpired = isExpired
        self.hasMore = hasMore
    }
}
