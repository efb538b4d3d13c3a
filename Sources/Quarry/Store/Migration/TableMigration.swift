/// How one table of the new layout comes to be.
enum TableMigration: Sendable {
    /// No old rows go into it: created empty.
    case create
    /// The old table at `oldTable` (index in the old layout) is altered where it stands.
    case inPlace(oldTable: Int)
    /// A new table is filled from old rows: for each new entity, the old entity its rows come from.
    case copy(sources: [(newEntity: Int, oldEntity: Int)])

    /// The old table kept in place, if any.
    var inPlaceTable: Int? {
        if case .inPlace(let t) = self { return t }
        return nil
    }
}

/// Where the contents of a relationship come from when its storage cannot stay as it is (a
/// to-one becoming to-many, a join table replacing a foreign key, a relationship whose objects
/// moved table): the old relationship whose (source, destination) pairs fill it.
struct RelationshipTransfer: Sendable {
    /// The new entity and relationship whose storage is filled.
    var entity: Int
    var relationship: Int
    /// The old entity and relationship that held the pairs.
    var oldEntity: Int
    var oldRelationship: Int
    /// The old relationship is the inverse: its pairs are read destination first.
    var reversed: Bool
    /// Old entity codes the new storage's source side may have (the relationship's old kinds).
    var oldSourceCodes: [Int]
}
