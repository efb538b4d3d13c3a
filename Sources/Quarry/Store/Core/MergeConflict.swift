/// An optimistic-locking conflict found while saving: the row changed in the store since the
/// context loaded it.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The object in conflict.
    public var objectID: ObjectID
    /// Its entity's name.
    public var entityName: String
    /// The state the context last loaded (the old row version).
    public var cachedSnapshot: Snapshot?
    /// The state now in the store (`nil`: the row was deleted meanwhile).
    public var persistedSnapshot: Snapshot?
    /// The in-memory state the save wanted to write (`nil`: the save deletes the object).
    public var objectSnapshot: Snapshot?
    /// The properties changed in memory.
    public var changed: PropertyMask

    /// Creates a conflict record.
    public init(objectID: ObjectID, entityName: String, cachedSnapshot: Snapshot?, persistedSnapshot: Snapshot?,
                objectSnapshot: Snapshot?, changed: PropertyMask) {
        self.objectID = objectID
        self.entityName = entityName
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        self.objectSnapshot = objectSnapshot
        self.changed = changed
    }

    /// The old row version.
    public var oldVersion: Int64 { cachedSnapshot?.version ?? 0 }
    /// The version now in the store (0 when the row is gone).
    public var newVersion: Int64 { persistedSnapshot?.version ?? 0 }

    public var description: String {
        "\(entityName) \(objectID): loaded at version \(oldVersion), store has " +
            (persistedSnapshot == nil ? "deleted it" : "version \(newVersion)")
    }
}

/// How a store applies one conflict, as decided by a merge policy.
public enum ConflictResolution: Sendable {
    /// Write this state (the store bumps its version past the persisted one).
    case write(Snapshot)
    /// Drop the in-memory change; the persisted state stands.
    case keepPersisted
    /// Delete the row anyway (for a conflicting delete).
    case delete
    /// Abort the whole save; the conflict is reported.
    case fail
}
