import Foundation
import Synchronization

/// Connects contexts to one store through one set of connections.
///
/// A stack usually has two coordinators over the same store file: the *main* one, read by the
/// UI's context, and the *writer* one used by importers, so background writes never wait on
/// the UI's connections. Each save through a coordinator is one store transaction; the
/// coordinator's ``identifier`` tells did-save observers which coordinator a save went through.
///
/// Thread safety: a coordinator is `Sendable`; the store below serialises writes.
public final class StoreCoordinator: Sendable, ObjectSource {
    /// The store this coordinator reads and writes.
    public let store: PersistentStore
    /// Distinguishes this coordinator from others on the same store.
    public let identifier = UUID()
    /// A name for debugging (for example `main` or `writer`).
    public let name: String

    /// The store's model.
    public var model: ManagedObjectModel { store.model }

    /// Called with what each save through this coordinator wrote, on the saving context's
    /// queue, as soon as the store's transaction has committed: before the saving context
    /// updates its own objects and announces the save (see ``onCommit(_:)``).
    private let commitObserver = Mutex<(@Sendable (SaveChanges) -> Void)?>(nil)

    /// Creates a coordinator over `store`.
    public init(store: PersistentStore, name: String = "coordinator") {
        self.store = store
        self.name = name
    }

    // MARK: Object URIs

    /// The URI form of a permanent object ID: `quarry://<store-uuid>/<Entity>/<pk>`.
    public func uri(for id: ObjectID) -> URL {
        let entity = model.entities[Int(id.entityIndex)].name
        let key = id.isTemporary ? "t\(-id.primaryKey)" : String(id.primaryKey)
        return URL(string: "quarry://\(store.identifier.uuidString)/\(entity)/\(key)")!
    }

    /// The object ID named by a URI from ``uri(for:)``.
    /// - Throws: ``QuarryError/invalidObjectID(_:)`` when the URI is malformed, names another
    ///   store, an unknown entity or a temporary ID.
    public func objectID(forURI uri: URL) throws -> ObjectID {
        let parts = uri.path.split(separator: "/").map(String.init)
        guard uri.scheme == "quarry", uri.host?.uppercased() == store.identifier.uuidString,
              parts.count == 2, let entity = model.entity(named: parts[0]), let pk = Int64(parts[1]), pk > 0
        else { throw QuarryError.invalidObjectID(uri.absoluteString) }
        return ObjectID(entityIndex: entity.index, primaryKey: pk)
    }

    // MARK: ObjectSource

    func sourceSnapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        try store.snapshots(for: ids.filter { !$0.isTemporary })
    }

    func sourceRelatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        id.isTemporary ? [] : try store.relatedIDs(of: id, relationship: relationship)
    }

    func sourceObjectIDs(for query: StoreQuery) throws -> [ObjectID] {
        try store.objectIDs(for: query)
    }

    func sourcePermanentID(for id: ObjectID) -> ObjectID? { nil }

    /// Writes a change set in one transaction (see ``PersistentStore/save(_:resolve:)``), then
    /// tells the commit observer what it wrote.
    func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        let result = try store.save(changes, resolve: resolve)
        announce(result.changes)
        return result
    }

    /// Tells the commit observer (``onCommit(_:)``) about `changes`, committed to the store
    /// by this coordinator.
    func announce(_ changes: SaveChanges) {
        if !changes.isEmpty, let observer = commitObserver.withLock({ $0 }) { observer(changes) }
    }

    /// Sets the one observer of this coordinator's commits (`nil` removes it): a stack merges
    /// its importers' saves into its main context from here, so the merge starts while the
    /// importer is still putting its own objects in line with the save, not after.
    func onCommit(_ observer: (@Sendable (SaveChanges) -> Void)?) {
        commitObserver.withLock { $0 = observer }
    }
}
