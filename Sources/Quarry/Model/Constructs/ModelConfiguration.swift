/// A named configuration of a model (Core Data's configurations): the entities a store opened
/// for it holds. A stack opened with ``PersistentStack/Options/configuration`` uses
/// ``ManagedObjectModel/forConfiguration(_:)``, the model cut down to these entities.
public struct ModelConfiguration: Sendable, Hashable {
    /// The configuration's name (unique in the model; Core Data's default one, `Default`, is
    /// every entity and is not listed).
    public var name: String
    /// The names of its entities.
    public var entities: [String]

    /// Creates a configuration.
    public init(name: String, entities: [String]) {
        self.name = name
        self.entities = entities
    }

    /// The configuration with its entities sorted by name.
    public var canonical: ModelConfiguration {
        ModelConfiguration(name: name, entities: entities.sorted())
    }
}
