/// A resolved entity of a ``ManagedObjectModel``: its full property layout, inherited
/// properties included, with every reference checked.
///
/// Property order is stable and shared along the inheritance chain: inherited attributes and
/// relationships come first, in the parent's order, then the entity's own ones sorted by name.
/// So an attribute keeps its index in every sub-entity, and the same model gives the same
/// layout on every machine.
public final class EntityDescription: Sendable, CustomStringConvertible, Hashable {
    /// The entity's name.
    public let name: String
    /// The entity's position in ``ManagedObjectModel/entities``.
    public let index: Int
    /// The parent entity's name, if any.
    public let parentName: String?
    /// Whether the entity is abstract (cannot be instantiated).
    public let isAbstract: Bool
    /// The class name the definition gave, if any.
    public let className: String?
    /// The root of this entity's inheritance tree (itself when it has no parent).
    public let rootName: String
    /// The index of the root entity.
    public let rootIndex: Int
    /// Every attribute, inherited first.
    public let attributes: [AttributeDescription]
    /// Every relationship, inherited first.
    public let relationships: [RelationshipDescription]
    /// Indexes declared on this entity or inherited.
    public let indexes: [IndexDescription]
    /// Uniqueness constraints declared on this entity or inherited.
    public let uniquenessConstraints: [[String]]
    /// Indexes (into ``ManagedObjectModel/entities``) of this entity and all its descendants.
    public let selfAndDescendantIndices: [Int]
    /// Names of the direct sub-entities.
    public let subentityNames: [String]
    /// The declared definition this entity was resolved from (own properties only, canonical).
    public let definition: EntityDefinition
    /// A stable hash of the entity's schema (SHA-256 hex), equal across runs and machines.
    public let versionHash: String

    let attributeIndexByName: [String: Int]
    let relationshipIndexByName: [String: Int]
    /// Indexes of the stored (non-transient) attributes.
    public let storedAttributeIndices: [Int]
    /// Each attribute's default value (`.null` when it has none): a new object's values.
    public let defaultValues: [Value]
    /// The attributes validation must look at (required, ranged or patterned, not transient).
    let validatedAttributeIndices: [Int]
    /// The relationships validation must look at (required, or with counts).
    let validatedRelationshipIndices: [Int]
    /// The storage type of each attribute, for the hot path.
    let attributeTypes: [AttributeType]
    /// Each attribute's name, for the hot path (no description copied per look).
    let attributeNames: [String]
    /// Indexes of the to-many relationships whose contents a store keeps as a list (ordered
    /// ones, and those whose inverse is missing or to-many); the others are stored through
    /// their inverse's foreign key.
    public let listStoredRelationshipIndices: Set<Int>
    /// Every fetched property, inherited first (never stored; read with
    /// ``ManagedObject/fetchedProperty(_:)``).
    public let fetchedProperties: [FetchedPropertyDescription]
    /// Every composite attribute, inherited first; its elements are among ``attributes``,
    /// named `<composite>.<element>`.
    public let compositeAttributes: [CompositeAttributeDescription]
    /// Indexes of the derived attributes (``AttributeDescription/isDerived``): read-only to
    /// callers, recomputed by saves.
    public let derivedAttributeIndices: [Int]

    init(
        definition: EntityDefinition, index: Int, rootName: String, rootIndex: Int,
        attributes: [AttributeDescription], relationships: [RelationshipDescription],
        indexes: [IndexDescription], uniquenessConstraints: [[String]],
        selfAndDescendantIndices: [Int], subentityNames: [String], versionHash: String,
        listStored: Set<Int>, fetchedProperties: [FetchedPropertyDescription] = [],
        compositeAttributes: [CompositeAttributeDescription] = []
    ) {
        self.fetchedProperties = fetchedProperties
        self.compositeAttributes = compositeAttributes
        self.derivedAttributeIndices = attributes.indices.filter { attributes[$0].isDerived }
        self.definition = definition
        self.name = definition.name
        self.index = index
        self.parentName = definition.parent
        self.isAbstract = definition.isAbstract
        self.className = definition.className
        self.rootName = rootName
        self.rootIndex = rootIndex
        self.attributes = attributes
        self.relationships = relationships
        self.indexes = indexes
        self.uniquenessConstraints = uniquenessConstraints
        self.selfAndDescendantIndices = selfAndDescendantIndices
        self.subentityNames = subentityNames
        self.versionHash = versionHash
        var attributeIndex: [String: Int] = [:]
        for (i, a) in attributes.enumerated() { attributeIndex[a.name] = i }
        self.attributeIndexByName = attributeIndex
        var relationshipIndex: [String: Int] = [:]
        for (i, r) in relationships.enumerated() { relationshipIndex[r.name] = i }
        self.relationshipIndexByName = relationshipIndex
        self.storedAttributeIndices = attributes.indices.filter { !attributes[$0].isTransient }
        self.defaultValues = attributes.map { $0.defaultValue ?? .null }
        self.validatedAttributeIndices = attributes.indices.filter {
            let a = attributes[$0]
            // A named transformer is checked at save: it may be unregistered (a default value
            // written on insert needs it too).
            return !a.isTransient && (!a.isOptional || a.minValue != nil || a.maxValue != nil || a.regularExpression != nil
                || (a.type == .transformable && a.valueTransformerName != nil))
        }
        self.validatedRelationshipIndices = relationships.indices.filter {
            let r = relationships[$0]
            return !r.isOptional || r.minCount > 0 || r.maxCount > 0
        }
        self.attributeTypes = attributes.map(\.type)
        self.attributeNames = attributes.map(\.name)
        self.listStoredRelationshipIndices = listStored
    }

    /// The index of the attribute named `name`, or `nil`.
    public func attributeIndex(_ name: String) -> Int? { attributeIndexByName[name] }
    /// The index of the relationship named `name`, or `nil`.
    public func relationshipIndex(_ name: String) -> Int? { relationshipIndexByName[name] }

    /// The attribute named `name`, or `nil`.
    public func attribute(_ name: String) -> AttributeDescription? {
        attributeIndexByName[name].map { attributes[$0] }
    }

    /// The relationship named `name`, or `nil`.
    public func relationship(_ name: String) -> RelationshipDescription? {
        relationshipIndexByName[name].map { relationships[$0] }
    }

    /// The fetched property named `name`, or `nil`.
    public func fetchedProperty(named name: String) -> FetchedPropertyDescription? {
        fetchedProperties.first { $0.name == name }
    }

    /// The composite attribute named `name`, or `nil`.
    public func compositeAttribute(named name: String) -> CompositeAttributeDescription? {
        compositeAttributes.isEmpty ? nil : compositeAttributes.first { $0.name == name }
    }

    /// Whether this entity is `other` or one of its descendants.
    public func isKind(of other: EntityDescription) -> Bool {
        other.selfAndDescendantIndices.contains(index)
    }

    /// Whether the entity has sub-entities.
    public var hasSubentities: Bool { selfAndDescendantIndices.count > 1 }

    public var description: String { name }

    /// The same entity, or entities of one name with equal version hashes (the same schema).
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool {
        lhs === rhs || (lhs.name == rhs.name && lhs.versionHash == rhs.versionHash)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
