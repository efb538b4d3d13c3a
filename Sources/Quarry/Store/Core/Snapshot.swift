/// The stored state of one object at one row version: what a fault loads and what a save writes.
///
/// `values` holds one entry per attribute of the entity (transient ones stay `.null` in stores);
/// `toOne` one entry per relationship (to-many slots are always `nil`: to-many contents are
/// loaded separately, see ``PersistentStore/relatedIDs(of:relationship:)``).
public struct Snapshot: Sendable, Equatable {
    /// Attribute values by attribute index.
    public var values: [Value]
    /// To-one destinations by relationship index.
    public var toOne: [ObjectID?]
    /// The row version (Core Data's `Z_OPT`): incremented by every save of the row.
    public var version: Int64

    /// Creates a snapshot.
    public init(values: [Value], toOne: [ObjectID?], version: Int64) {
        self.values = values
        self.toOne = toOne
        self.version = version
    }

    /// An empty snapshot for `entity`: defaults applied, no relationships, version 0.
    public init(defaultsFor entity: EntityDescription) {
        self.values = entity.attributes.map { $0.defaultValue ?? .null }
        self.toOne = Array(repeating: nil, count: entity.relationships.count)
        self.version = 0
    }
}
