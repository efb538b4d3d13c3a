import Synchronization

/// A resolved, validated object model: the entities, their properties and relationships.
///
/// Build one from a ``ModelDefinition`` (what every loader produces: ``ModelBuilder``,
/// ``ManagedObjectModel/load(jsonAt:)`` and ``ManagedObjectModel/load(xcodeModelAt:)``).
/// Construction checks every reference (parents, destinations, inverses, index attributes,
/// defaults) and throws a ``ModelError`` naming the first fault.
///
/// A model is immutable and `Sendable`; share one between all contexts of a stack. Two models
/// are equal when their canonical definitions are equal, whichever loader made them.
public final class ManagedObjectModel: Sendable, Equatable, CustomStringConvertible {
    /// Every entity, sorted by name.
    public let entities: [EntityDescription]
    /// The canonical definition (entities sorted by name, properties sorted by name).
    public let definition: ModelDefinition
    /// A stable hash of the whole schema (SHA-256 hex over the entities' hashes).
    public let versionHash: String
    /// Non-fatal notes from the loader (for example an Xcode element Quarry ignores).
    public let warnings: [ModelWarning]

    private let entityIndexByName: [String: Int]
    /// For each entity and relationship index: the destination entity's index and the inverse
    /// relationship's index there (`nil` when there is no inverse).
    let relationshipTargets: [[(destination: Int, inverse: Int?)]]
    private let classes = Mutex<[Int: ManagedObject.Type]>([:])
    /// What stores compute from the model once (``StoreLayout/of(_:)``).
    let derived = ModelDerivedValues()

    /// Which entity and property names a model accepts.
    public enum NamePolicy: Sendable {
        /// Letters, digits and `_`, not starting with a digit: what model files may use, so
        /// every name can be typed in a predicate as is.
        case identifiers
        /// Any text without `.` or control characters: the names of tables and columns of a
        /// database Quarry did not make, kept as they are (a predicate quotes them in backticks).
        case anyText
    }

    /// Resolves and validates `definition`.
    ///
    /// An attribute naming a value transformer that is not registered adds a
    /// ``ModelWarning/unregisteredTransformer`` warning to `warnings`.
    /// - Parameters:
    ///   - definition: The model as written: entities, properties, rules.
    ///   - warnings: Warnings found while reading it, kept in ``ManagedObjectModel/warnings``.
    ///   - namePolicy: which names are accepted (``NamePolicy/identifiers`` unless the names
    ///     come from a database's own schema).
    /// - Throws: ``ModelError`` naming the entity and property at fault.
    public convenience init(_ definition: ModelDefinition, warnings: [ModelWarning] = [], namePolicy: NamePolicy = .identifiers) throws {
        try self.init(definition, warnings: warnings, namePolicy: namePolicy, locating: { _, _ in nil })
    }

    /// Resolves and validates `definition`, as the public initializer does; `location` gives
    /// the `FILE:LINE` of an entity's attribute for warnings that name one.
    init(_ definition: ModelDefinition, warnings: [ModelWarning], namePolicy: NamePolicy = .identifiers,
         locating location: (_ entity: String, _ attribute: String) -> String?) throws {
        let canonical = definition.canonical
        self.definition = canonical
        self.warnings = warnings + ModelWarning.unregisteredTransformers(in: canonical, location: location)
        let entities = try ModelResolver(canonical, namePolicy: namePolicy).resolve()
        self.entities = entities
        var byName: [String: Int] = [:]
        for e in entities { byName[e.name] = e.index }
        self.entityIndexByName = byName
        self.relationshipTargets = entities.map { e in
            e.relationships.map { r in
                let destination = entities[byName[r.destination]!]
                return (destination.index, r.inverse.flatMap { destination.relationshipIndex($0) })
            }
        }
        self.versionHash = SHA256.hex(entities.map { "\($0.name):\($0.versionHash)" }.joined(separator: "\n"))
        try checkConstructs()
    }

    /// The entity named `name`, or `nil`.
    public func entity(named name: String) -> EntityDescription? {
        entityIndexByName[name].map { entities[$0] }
    }

    /// The entity named `name`.
    /// - Throws: ``QuarryError/unknownEntity(_:)``.
    public func requireEntity(_ name: String) throws -> EntityDescription {
        guard let e = entity(named: name) else { throw QuarryError.unknownEntity(name) }
        return e
    }

    /// The destination entity of relationship `relationship` of `entity`.
    public func destination(of entity: EntityDescription, relationship: Int) -> EntityDescription {
        entities[relationshipTargets[entity.index][relationship].destination]
    }

    /// The index of the inverse of relationship `relationship` of `entity` in its destination.
    public func inverseIndex(of entity: EntityDescription, relationship: Int) -> Int? {
        relationshipTargets[entity.index][relationship].inverse
    }

    /// The version hash of each entity, by name.
    public var entityVersionHashes: [String: String] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
    }

    /// Binds a ``ManagedObject`` subclass to an entity, so objects of that entity are created
    /// as instances of `type`. Typed inserts and fetches bind automatically.
    public func register(_ type: ManagedObject.Type, for entityName: String) {
        guard let index = entityIndexByName[entityName] else { return }
        classes.withLock { $0[index] = type }
    }

    /// The class bound to `entity` (``ManagedObject`` itself when none was registered).
    public func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        classes.withLock { $0[entity.index] } ?? ManagedObject.self
    }

    /// Equal schemas: equal canonical definitions, class names aside (they are informational,
    /// and only Xcode models carry them).
    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        func schema(_ d: ModelDefinition) -> ModelDefinition {
            var copy = d
            // Class names and composite type names are informational (only Xcode models carry them).
            copy.entities = d.entities.map { entity in
                var e = entity
                e.className = nil
                for i in e.compositeAttributes.indices { e.compositeAttributes[i].typeName = nil }
                return e
            }
            return copy
        }
        return lhs === rhs || schema(lhs.definition) == schema(rhs.definition)
    }

    public var description: String {
        "ManagedObjectModel(\(entities.map(\.name).joined(separator: ", ")); hash \(versionHash.prefix(12)))"
    }
}

/// A non-fatal note from a model loader, named so callers can filter it.
public struct ModelWarning: Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier, e.g. `xcode.ignored-element`.
    public var name: String
    /// Where it was found (file and line) and what was ignored.
    public var message: String

    /// Creates a warning.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "warning[\(name)]: \(message)" }
}
