/// Why ``ContextUndoManager/undo()`` or ``ContextUndoManager/redo()`` changed nothing.
public struct UndoRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// A property the undo (or redo) would put back that another writer saved differently
    /// since the group was recorded, or an object another writer deleted.
    public struct Conflict: Sendable, Equatable, CustomStringConvertible {
        /// The object's entity.
        public let entity: String
        /// The object.
        public let objectID: ObjectID
        /// The property, or `nil` when another writer deleted the object.
        public let key: String?
        /// The value the group left (text).
        public let expected: String
        /// The value the store holds now (text).
        public let found: String

        public var description: String {
            guard let key else { return "\(entity) \(objectID.primaryKey) was deleted by another writer" }
            return "\(entity) \(objectID.primaryKey) '\(key)' was changed by another writer (\(expected) → \(found))"
        }
    }

    /// `undo` or `redo`.
    public let operation: String
    /// The group's action name (may be empty).
    public let actionName: String
    /// The properties and objects at fault; empty when the refusal has another ``reason``.
    public let conflicts: [Conflict]
    /// The reason when there is no conflict (an explicit group still open, the store unreadable).
    public let reason: String?

    public var description: String {
        let what = actionName.isEmpty ? operation : "\(operation) of '\(actionName)'"
        if let reason { return "\(what) refused: \(reason)" }
        return "\(what) refused: " + conflicts.map(\.description).joined(separator: "; ")
    }
}
