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
    /// The entity's fetched properties: each a fetch of another entity, run lazily when read
    /// (``ManagedObject/fetchedProperty(_:)``). Never stored.
    public var fetchedProperties: [FetchedPropertyDescription]
    /// The entity's composite attributes (Core Data's `NSCompositeAttributeDescription`): each
    /// stored flattened, one column per element, and read and written as one dictionary value.
    public var compositeAttributes: [CompositeAttributeDescription]

    /// Creates an entity definition.
    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false, className: String? = nil,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        indexes: [IndexDescription] = [], uniquenessConstraints: [[String]] = [],
        renamingIdentifier: String? = nil, fetchedProperties: [FetchedPropertyDescription] = [],
        compositeAttributes: [CompositeAttributeDescription] = []
    ) {
        self.fetchedProperties = fetchedProperties
        self.compositeAttributes = compositeAttributes
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

    /// The entity's own attributes as stores lay them out: ``attributes`` then each composite's
    /// elements, flattened (``CompositeAttributeDescription/storedAttributes``).
    public var ownStoredAttributes: [AttributeDescription] {
        compositeAttributes.isEmpty ? attributes : attributes + compositeAttributes.flatMap(\.storedAttributes)
    }

    /// The same definition with properties, indexes and constraints in a canonical order, so
    /// that two loaders describing the same entity produce equal values.
    public var canonical: EntityDefinition {
        var copy = self
        copy.attributes.sort { $0.name < $1.name }
        copy.relationships.sort { $0.name < $1.name }
        copy.fetchedProperties.sort { $0.name < $1.name }
        copy.compositeAttributes = compositeAttributes.map(\.canonical).sorted { $0.name < $1.name }
        copy.indexes.sort { $0.name < $1.name }
        copy.uniquenessConstraints = uniquenessConstraints.map { $0 }.sorted { $0.joined(separator: ",") < $1.joined(separator: ",") }
        return copy
    }
}

/// The declared form of a whole model: the value every model loader produces.
public struct ModelDefinition: Sendable, Hashable {
    /// The entity definitions.
    public var entities: [EntityDefinition]
    /// The model's fetch request templates (Xcode's "Fetch Requests"), callable by name with
    /// ``ManagedObjectModel/fetchRequest(named:substitutions:)``.
    public var fetchRequestTemplates: [FetchRequestTemplate]
    /// The model's named configurations: subsets of its entities a store can be opened for
    /// (``ManagedObjectModel/forConfiguration(_:)``).
    public var configurations: [ModelConfiguration]

    /// Creates a model definition.
    public init(entities: [EntityDefinition], fetchRequestTemplates: [FetchRequestTemplate] = [],
                configurations: [ModelConfiguration] = []) {
        self.entities = entities
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
    }

    /// The definition with entities sorted by name and each entity canonical (templates and
    /// configurations by name, a configuration's entities by name).
    public var canonical: ModelDefinition {
        ModelDefinition(
            entities: entities.map(\.canonical).sorted { $0.name < $1.name },
            fetchRequestTemplates: fetchRequestTemplates.sorted { $0.name < $1.name },
            configurations: configurations.map(\.canonical).sorted { $0.name < $1.name })
    }
}
