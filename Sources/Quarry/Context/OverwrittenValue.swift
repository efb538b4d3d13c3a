/// A value a creator context's save replaced in the store although another writer (another
/// process, an importer, `sqlite3`) had changed it after the creator loaded the object.
public struct OverwrittenValue: Sendable, Equatable, CustomStringConvertible {
    /// The object written.
    public var objectID: ObjectID
    /// Its entity's name.
    public var entityName: String
    /// The attribute or to-one relationship name.
    public var property: String
    /// The other writer's value, now replaced (a to-one as its object URI, or nil).
    public var overwritten: Value
    /// The value the save wrote.
    public var written: Value

    /// Creates a record.
    public init(objectID: ObjectID, entityName: String, property: String, overwritten: Value, written: Value) {
        self.objectID = objectID
        self.entityName = entityName
        self.property = property
        self.overwritten = overwritten
        self.written = written
    }

    public var description: String { "\(property): overwrote \(overwritten) with \(written)" }
}
