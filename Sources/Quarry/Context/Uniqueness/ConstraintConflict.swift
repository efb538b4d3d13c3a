/// A clash on a uniqueness constraint found while saving (Core Data's `NSConstraintConflict`):
/// objects of the save, and perhaps a row already in the store, hold the same key.
///
/// A save finds clashes among its own objects (two inserted objects with the same key, or an
/// object changed to a key another object of the save takes) and against rows already stored
/// (``databaseObjectID``). A key holding a null never clashes, as in SQL.
public struct ConstraintConflict: Sendable, CustomStringConvertible {
    /// The entity whose rows the constraint covers (the topmost entity that has every
    /// attribute of ``constraint``; its sub-entities' rows are covered too).
    public var entityName: String
    /// The constrained attributes, as the model declares them.
    public var constraint: [String]
    /// The key the clashing objects hold: one value per attribute of ``constraint``.
    public var values: [Value]
    /// The row already in the store that holds the key (`nil`: the clash is among the save's
    /// own objects).
    public var databaseObjectID: ObjectID?
    /// The stored state of ``databaseObjectID``.
    public var databaseSnapshot: Snapshot?
    /// The save's objects holding the key (temporary IDs for inserted ones), in the order the
    /// save took them: changed stored objects first, then inserted ones in insertion order.
    public var conflictingObjectIDs: [ObjectID]
    /// The in-memory state of each of ``conflictingObjectIDs``, in the same order.
    public var conflictingSnapshots: [Snapshot]

    /// Creates a conflict record.
    public init(entityName: String, constraint: [String], values: [Value], databaseObjectID: ObjectID?,
                databaseSnapshot: Snapshot?, conflictingObjectIDs: [ObjectID], conflictingSnapshots: [Snapshot]) {
        self.entityName = entityName
        self.constraint = constraint
        self.values = values
        self.databaseObjectID = databaseObjectID
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjectIDs = conflictingObjectIDs
        self.conflictingSnapshots = conflictingSnapshots
    }

    /// The key by attribute name (Core Data's `constraintValues`).
    public var constraintValues: [String: Value] {
        Dictionary(zip(constraint, values), uniquingKeysWith: { first, _ in first })
    }

    public var description: String {
        let key = zip(constraint, values).map { "\($0)=\($1)" }.joined(separator: ", ")
        let objects = conflictingObjectIDs.map(\.description).joined(separator: ", ")
        let stored = databaseObjectID.map { " and stored object \($0)" } ?? ""
        return "\(entityName)(\(key)) held by \(objects)\(stored)"
    }
}
