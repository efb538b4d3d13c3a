/// What happens to the objects at the other end of a relationship when its source is deleted.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Remove the deleted object from the inverse relationship of each related object.
    case nullify = "Nullify"
    /// Delete the related objects too.
    case cascade = "Cascade"
    /// Refuse the delete (at save) while the relationship holds any object.
    case deny = "Deny"
    /// Do nothing to related objects (they may be left pointing at a deleted object).
    case noAction = "No Action"
}

/// One relationship of an entity.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name (its key).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// The inverse relationship's name on the destination entity, if any.
    public var inverse: String?
    /// Whether this is a to-many relationship.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order.
    public var isOrdered: Bool
    /// Whether an empty relationship is allowed at save.
    public var isOptional: Bool
    /// What deleting the source does to the destination objects.
    public var deleteRule: DeleteRule
    /// The smallest number of related objects allowed at save (to-many; 0: none).
    public var minCount: Int
    /// The largest number of related objects allowed at save (to-many; 0: no limit).
    public var maxCount: Int
    /// The relationship's name in an earlier model version, when it was renamed (Core Data's
    /// `renamingIdentifier`): migration carries its contents over. Not part of the version hash.
    public var renamingIdentifier: String?

    /// Creates a relationship description.
    public init(
        name: String, destination: String, inverse: String? = nil, isToMany: Bool = false,
        isOrdered: Bool = false, isOptional: Bool = true, deleteRule: DeleteRule = .nullify,
        minCount: Int = 0, maxCount: Int = 0, renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.deleteRule = deleteRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.renamingIdentifier = renamingIdentifier
    }
}
