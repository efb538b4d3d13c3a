/// A named index over one or more attributes of an entity.
public struct IndexDescription: Sendable, Hashable {
    /// The index's name (unique within its entity).
    public var name: String
    /// The attribute names, in index order.
    public var attributes: [String]

    /// Creates an index description.
    public init(name: String, attributes: [String]) {
        self.name = name
        self.attributes = attributes
    }
}

/// The declared form of one entity, as a loader (builder, JSON, Xcode XML) produces it.
///
/// A ``ManagedObjectModel`` resolves definitions into ``EntityDescription``s: it sorts
/// properties by name, checks every reference and lays out inherited properties.
public struct EntityDefinition: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// The parent entity's name, for entity inheritance.
    public var parent: String?
    /// Abstract entities cannot be instantiated; their sub-entities can.
    public var isAbstract: Bool
    /// The name of the ``ManagedObject`` subclass that represents the entity (informational;
    /// classes are bound with ``ManagedObjectModel/register(_:for:)``).
    public var className: String?
    /// The entity's own attributes (inherited ones are not repeated).
    public var attributes: [AttributeDescription]
    /// The entity's own relationships.
    public var relationships: [RelationshipDescription]
    /// Extra (compound) indexes.
    public var indexes: [IndexDescription]
    /// Uniqueness constraints: each is a list of attribute names whose combination is unique.
    public var uniquenessConstraints: [[String]]
    /// The entity's name in an earlier model version, when it was renamed (Core Data's
    /// `renamingIdentifier`): migration carries that entity's rows over. Not part of the
    /// version hash.
    public var renamingIdentifier: String?

    /// Creates an entity definition.
    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false, className: String? = nil,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        indexes: [IndexDescription] = [], uniquenessConstraints: [[String]] = [],
        renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.className = className
        self.attributes = attributes
        self.relationships = relationships
        self.indexes = indexes
        self.uniquenessConstraints = uniquenessConstraints
        self.renamingIdentifier = renamingIdentifier
    }

    /// The same definition with properties, indexes and constraints in a canonical order, so
    /// that two loaders describing the same entity produce equal values.
    public var canonical: EntityDefinition {
        var copy = self
        copy.attributes.sort { $0.name < $1.name }
        copy.relationships.sort { $0.name < $1.name }
        copy.indexes.sort { $0.name < $1.name }
        copy.uniquenessConstraints = uniquenessConstraints.map { $0 }.sorted { $0.joined(separator: ",") < $1.joined(separator: ",") }
        return copy
    }
}

/// The declared form of a whole model: the value every model loader produces.
public struct ModelDefinition: Sendable, Hashable {
    /// The entity definitions.
    public var entities: [EntityDefinition]

    /// Creates a model definition.
    public init(entities: [EntityDefinition]) {
        self.entities = entities
    }

    /// The definition with entities sorted by name and each entity canonical.
    public var canonical: ModelDefinition {
        ModelDefinition(entities: entities.map(\.canonical).sorted { $0.name < $1.name })
    }
}
