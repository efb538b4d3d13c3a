import Synchronization

/// The identity of one object: its concrete entity and its primary key.
///
/// An object inserted in a context gets a *temporary* ID (negative key) that the store replaces
/// with a *permanent* one when the object is saved; ``ManagedObject/objectID`` changes then,
/// as in Core Data. IDs are plain values: `Sendable`, hashable, cheap to pass between queues.
/// Their URI form (`quarry://<store-uuid>/<Entity>/<pk>`) comes from the coordinator, which
/// knows the store and the model.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The index of the object's (concrete) entity in its model.
    public let entityIndex: Int32
    /// The primary key; negative for temporary IDs.
    public let primaryKey: Int64

    /// Creates an ID from its parts.
    public init(entityIndex: Int, primaryKey: Int64) {
        self.entityIndex = Int32(entityIndex)
        self.primaryKey = primaryKey
    }

    /// Whether the ID is temporary (the object has never been saved).
    public var isTemporary: Bool { primaryKey < 0 }

    /// A new temporary ID for an object of the entity at `entityIndex`.
    public static func temporary(entityIndex: Int) -> ObjectID {
        ObjectID(entityIndex: entityIndex, primaryKey: -temporaryCounter.add(1, ordering: .relaxed).newValue)
    }

    /// Orders by primary key, then entity: the tie-breaker of every sorted fetch.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey != rhs.primaryKey ? lhs.primaryKey < rhs.primaryKey : lhs.entityIndex < rhs.entityIndex
    }

    public var description: String { "<e\(entityIndex)/\(isTemporary ? "t\(-primaryKey)" : "p\(primaryKey)")>" }
}

private let temporaryCounter = Atomic<Int64>(0)
