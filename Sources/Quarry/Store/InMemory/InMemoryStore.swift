import Foundation
import Synchronization

/// A ``PersistentStore`` that keeps everything in memory: for tests and temporary work.
///
/// It behaves like the SQLite store: one primary-key sequence per root entity, row versions for
/// optimistic locking, the same to-many layout (foreign keys, join lists stored once per
/// many-to-many pair), uniqueness constraints, and all-or-nothing saves. Nothing survives the
/// instance.
///
/// Thread safety: the store is `Sendable`. All state lives on one serial queue, so any number
/// of coordinators may share an instance; reads see committed saves only, and saves are
/// serialised. The `resolve` closure of ``save(_:resolve:)`` runs on that queue and must not
/// call back into the store.
///
/// ```swift
/// let store = InMemoryStore(model: model)
/// let coordinator = StoreCoordinator(store: store, name: "memory")
/// ```
public final class InMemoryStore: PersistentStore {
    /// A UUID fixed when the store was created (the host part of object URIs).
    public let identifier: UUID
    /// The model the store was created with.
    public let model: ManagedObjectModel
    /// Always `nil`: the store has no file.
    public var url: URL? { nil }
    /// Whether saves are refused with ``StoreError/readOnly(path:)`` (path `"memory"`).
    public let isReadOnly: Bool

    let layout: InMemoryLayout
    let state = QueueConfined(InMemoryState(), label: "quarry.memory-store")
    /// Committed saves so far, and this instance's own UUID (see ``modificationToken()``).
    private let saveCount = Atomic<Int64>(0)
    private let instance = UUID()

    /// Creates an empty store for `model`.
    ///
    /// - Parameters:
    ///   - model: The model whose objects the store keeps.
    ///   - identifier: The store's UUID (a fresh one by default).
    ///   - isReadOnly: Whether every save is refused.
    public init(model: ManagedObjectModel, identifier: UUID = UUID(), isReadOnly: Bool = false) {
        self.model = model
        self.identifier = identifier
        self.isReadOnly = isReadOnly
        self.layout = InMemoryLayout(model: model)
    }

    /// The committed state of each of `ids` that still exists (missing IDs are left out).
    ///
    /// Transient attributes are `.null` and to-many slots `nil`, as in every store.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] {
        let entities = model.entities
        return state.sync { state in
            var result: [ObjectID: Snapshot] = [:]
            for id in ids where entities.indices.contains(Int(id.entityIndex)) {
                if let row = state.row(id, root: entities[Int(id.entityIndex)].rootIndex) { result[id] = row.snapshot }
            }
            return result
        }
    }

    /// The committed contents of relationship `relationship` of `id`.
    ///
    /// A to-many whose inverse is to-one lists the destinations pointing at `id`, in primary-key
    /// order (in stored order when ordered); a join-stored one lists its stored order. For a
    /// to-one relationship the result holds its destination, if any.
    /// - Throws: ``QuarryError/invalidObjectID(_:)`` for an ID of no entity,
    ///   ``QuarryError/invalidValue(_:)`` for a relationship index out of range.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        guard model.entities.indices.contains(Int(id.entityIndex)) else { throw QuarryError.invalidObjectID(id.description) }
        let entity = model.entities[Int(id.entityIndex)]
        guard entity.relationships.indices.contains(relationship) else {
            throw QuarryError.invalidValue("\(entity.name) has no relationship at index \(relationship)")
        }
        let storage = layout.toMany[entity.index][relationship]
        return state.sync { state in
            guard let storage else {
                return state.row(id, root: entity.rootIndex)?.snapshot.toOne[relationship].map { [$0] } ?? []
            }
            return state.members(of: id, storage: storage, model: model)
        }
    }

    /// Every member list of to-many `relationship` of the entity at `entityIndex`, by owner, in
    /// one pass over the storage (``relatedIDs(of:relationship:)`` scans a foreign-key table
    /// per owner: a copy of the whole store would be quadratic).
    public func allRelatedIDs(ofEntity entityIndex: Int, relationship: Int) throws -> [ObjectID: [ObjectID]]? {
        guard model.entities.indices.contains(entityIndex) else { throw QuarryError.invalidValue("no entity at index \(entityIndex)") }
        let entity = model.entities[entityIndex]
        guard entity.relationships.indices.contains(relationship) else {
            throw QuarryError.invalidValue("\(entity.name) has no relationship at index \(relationship)")
        }
        guard let storage = layout.toMany[entity.index][relationship] else { return nil }
        return state.sync { $0.allMembers(storage: storage, model: model) }
    }

    /// The IDs of the objects `request` selects (filtered and sorted in memory), after `offset` and `limit`.
    ///
    /// Objects of sub-entities are included when ``StoreQuery/includesSubentities`` is set.
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] {
        let entities = Set(request.includesSubentities ? request.entity.selfAndDescendantIndices : [request.entity.index])
        let snapshot = state.sync { $0 }
        var all = snapshot.objectIDs(root: request.entity.rootIndex, entities: entities)
        if request.predicate != nil || !request.sortDescriptors.isEmpty || request.restrictedTo != nil {
            all = try apply(request, to: all, in: snapshot)
        }
        let page = all.dropFirst(max(request.offset, 0))
        return Array(request.limit > 0 ? page.prefix(request.limit) : page)
    }

    /// How many objects `request` selects: the size of ``objectIDs(for:)``'s answer.
    public func count(for request: StoreQuery) throws -> Int {
        try objectIDs(for: request).count
    }

    /// The committed state: `<store UUID> <instance UUID> <save count>`. The count is bumped
    /// under the store's lock by every committed save; the instance UUID keeps two stores (or
    /// two runs) with the same identifier from ever sharing a token.
    public func modificationToken() throws -> String? {
        "\(identifier.uuidString) \(instance.uuidString) \(saveCount.load(ordering: .sequentiallyConsistent))"
    }

    /// Applies `changes` all or nothing (see ``PersistentStore/save(_:resolve:)``).
    ///
    /// Inserts get the next primary keys of their root entity and version 1; updates and
    /// deletes must find the row at the version they were based on, otherwise `resolve` decides.
    /// An update writes only its changed properties over the persisted row. Every write bumps
    /// the row version.
    /// - Throws: ``StoreError/readOnly(path:)``, ``MergeConflictError`` listing every conflict
    ///   resolved as ``ConflictResolution/fail``, ``StoreError/uniquenessViolation(entity:keys:)``;
    ///   after any throw the store is unchanged.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StoreError.readOnly(path: "memory") }
        return try save(changes, resolve: resolve, beforeCommit: { _ in })
    }

    /// Applies `changes` like ``save(_:resolve:)``, calling `beforeCommit` with the state the
    /// save made, on the store's queue, before the store takes it: a throw there leaves the store
    /// unchanged (the JSON store writes its files there, so memory and disk never disagree).
    func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution,
              beforeCommit: (InMemoryState) throws -> Void) throws -> StoreSaveResult {
        try state.sync { state throws -> StoreSaveResult in
            var save = InMemorySave(model: model, layout: layout, state: state)
            let result = try save.run(changes, resolve: resolve)
            try beforeCommit(save.state)
            state = save.state
            saveCount.add(1, ordering: .sequentiallyConsistent)
            return result
        }
    }
}
