/// The Swift way to define a model.
///
/// ```swift
/// var builder = ModelBuilder()
/// builder.entity("Sector") { e in
///     e.attribute("name", .string, optional: false)
///     e.toMany("tickers", destination: "Ticker", inverse: "sector", deleteRule: .cascade)
///     e.unique("name")
/// }
/// builder.entity("Ticker") { e in
///     e.attribute("symbol", .string, optional: false, indexed: true)
///     e.toOne("sector", destination: "Sector", inverse: "tickers")
/// }
/// let model = try builder.build()
/// ```
/// The result equals what the JSON and Xcode loaders produce for the same model.
public struct ModelBuilder: Sendable {
    /// The entity definitions added so far.
    public private(set) var definition = ModelDefinition(entities: [])

    /// Creates an empty builder.
    public init() {}

    /// Adds an entity, configured by `configure`.
    public mutating func entity(
        _ name: String, parent: String? = nil, abstract: Bool = false, className: String? = nil,
        renamedFrom renamingIdentifier: String? = nil,
        _ configure: (inout EntityBuilder) -> Void = { _ in }
    ) {
        var entity = EntityBuilder(EntityDefinition(
            name: name, parent: parent, isAbstract: abstract, className: className, renamingIdentifier: renamingIdentifier))
        configure(&entity)
        definition.entities.append(entity.definition)
    }

    /// Adds a fetch request template, callable with ``ManagedObjectModel/fetchRequest(named:substitutions:)``.
    public mutating func fetchRequest(_ name: String, entity: String, predicate: String) {
        definition.fetchRequestTemplates.append(FetchRequestTemplate(name: name, entity: entity, predicate: predicate))
    }

    /// Adds a configuration holding `entities` (``ManagedObjectModel/forConfiguration(_:)``).
    public mutating func configuration(_ name: String, entities: [String]) {
        definition.configurations.append(ModelConfiguration(name: name, entities: entities))
    }

    /// Resolves and validates the model.
    /// - Throws: ``ModelError`` naming the entity and property at fault.
    public func build() throws -> ManagedObjectModel {
        try ManagedObjectModel(definition)
    }
}

/// Adds properties, indexes and constraints to one entity of a ``ModelBuilder``.
public struct EntityBuilder: Sendable {
    /// The definition built so far.
    public private(set) var definition: EntityDefinition

    init(_ definition: EntityDefinition) { self.definition = definition }

    /// Adds an attribute.
    public mutating func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = true, transient: Bool = false,
        default defaultValue: Value? = nil, min: Double? = nil, max: Double? = nil,
        regex: String? = nil, indexed: Bool = false, renamedFrom renamingIdentifier: String? = nil,
        preservesValueInHistoryOnDeletion: Bool = false
    ) {
        definition.attributes.append(AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient, defaultValue: defaultValue,
            minValue: min, maxValue: max, regularExpression: regex, isIndexed: indexed,
            renamingIdentifier: renamingIdentifier, preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion))
    }

    /// Adds a to-one relationship.
    public mutating func toOne(
        _ name: String, destination: String, inverse: String? = nil, optional: Bool = true,
        deleteRule: DeleteRule = .nullify, renamedFrom renamingIdentifier: String? = nil
    ) {
        definition.relationships.append(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isToMany: false, isOptional: optional,
            deleteRule: deleteRule, renamingIdentifier: renamingIdentifier))
    }

    /// Adds a to-many relationship.
    public mutating func toMany(
        _ name: String, destination: String, inverse: String? = nil, ordered: Bool = false,
        optional: Bool = true, deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int = 0,
        renamedFrom renamingIdentifier: String? = nil
    ) {
        definition.relationships.append(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isToMany: true, isOrdered: ordered,
            isOptional: optional, deleteRule: deleteRule, minCount: minCount, maxCount: maxCount,
            renamingIdentifier: renamingIdentifier))
    }

    /// Adds a derived attribute computed from `expression` (``DerivationExpression``).
    public mutating func derived(_ name: String, _ type: AttributeType, _ expression: String, optional: Bool = true) {
        definition.attributes.append(AttributeDescription(name: name, type: type, isOptional: optional, derivationExpression: expression))
    }

    /// Adds a composite attribute of `elements`, stored flattened (``CompositeAttributeDescription``).
    public mutating func composite(_ name: String, optional: Bool = true, elements: [AttributeDescription]) {
        definition.compositeAttributes.append(CompositeAttributeDescription(name: name, isOptional: optional, elements: elements))
    }

    /// Adds a fetched property: `destination` objects matching `predicate` (``FetchedPropertyDescription``).
    public mutating func fetchedProperty(_ name: String, destination: String, predicate: String) {
        definition.fetchedProperties.append(FetchedPropertyDescription(name: name, destination: destination, predicate: predicate))
    }

    /// Adds a (compound) index over `attributes`.
    public mutating func index(_ name: String, _ attributes: String...) {
        definition.indexes.append(IndexDescription(name: name, attributes: attributes))
    }

    /// Adds a uniqueness constraint over the combination of `attributes`.
    public mutating func unique(_ attributes: String...) {
        definition.uniquenessConstraints.append(attributes)
    }
}
