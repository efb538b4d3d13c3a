import Foundation
import Quarry

/// Loads a JSON store folder as test data (M3CoreData's fixture controller) and hands out its
/// objects by the IDs written in the files.
///
/// The folder is only read: its objects are copied into an ``InMemoryStore`` (same IDs, same
/// store UUID), so a test may change and save them freely and every test starts from the same
/// data. Folders may be written by hand: a relationship can be given from one side only, and
/// `keyCounters` may be left out (see ``JSONStore``).
///
/// ```swift
/// let fixtures = try FixtureController(model: model, dataURL: Bundle.module.url(forResource: "Fixtures/store/Tickers", withExtension: nil)!)
/// try fixtures.context.performAndWait {
///     let acme = try fixtures.object(withID: 1, inEntity: "Ticker")
///     #expect(acme.value(forKey: "symbol") == .string("ACME"))
/// }
/// ```
public final class FixtureController: Sendable {
    /// The model (the one given, or the folder's own).
    public let model: ManagedObjectModel
    /// The store holding the fixture's objects.
    public let store: InMemoryStore
    /// A coordinator over ``store``.
    public let coordinator: StoreCoordinator
    /// A private-queue context over ``coordinator``; use its objects inside `performAndWait`.
    public let context: ObjectContext

    /// Loads the JSON store folder at `dataURL`.
    /// - Parameters:
    ///   - model: The model the folder was written with; `nil` takes the folder's own.
    ///   - dataURL: The folder (`_Metadata.json` and `<Entity>.json` files).
    /// - Throws: ``JSONStoreError`` naming the file, line and column of a fault;
    ///   ``StoreError/modelMismatch(path:entities:)`` when the folder was written with another model.
    public init(model: ManagedObjectModel? = nil, dataURL: URL) throws {
        let loaded = try JSONStore(url: dataURL, model: model, readOnly: true)
        self.model = loaded.model
        store = loaded.inMemoryCopy()
        coordinator = StoreCoordinator(store: store, name: "fixtures")
        context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "fixtures")
    }

    /// The object of `entityName` whose ID in the fixture files is `id`, loaded in ``context``.
    ///
    /// Call it on the context's queue (inside `context.performAndWait`) to use the object there.
    /// - Throws: ``QuarryError/unknownEntity(_:)``, ``QuarryError/objectNotFound(_:)``.
    public func object(withID id: Int64, inEntity entityName: String) throws -> ManagedObject {
        let entity = try model.requireEntity(entityName)
        return try context.performAndWait { try context.existingObject(with: ObjectID(entityIndex: entity.index, primaryKey: id)) }
    }

    /// The typed object of `entityName` whose fixture ID is `id` (binding `T` to the entity,
    /// as a typed insert or fetch does).
    public func object<T: ManagedObject>(withID id: Int64, inEntity entityName: String, as type: T.Type) throws -> T {
        let entity = try model.requireEntity(entityName)
        if model.objectClass(for: entity) != T.self { model.register(T.self, for: entity.name) }
        return try context.performAndWait {
            try context.existingObject(with: ObjectID(entityIndex: entity.index, primaryKey: id), as: type)
        }
    }
}
