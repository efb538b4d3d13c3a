import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A fresh ``InMemoryStore`` (or ``JSONStore``, built on it) over the ticker model, with
/// builders for change sets by name.
struct InMemoryStoreFixture {
    /// The store under test: the store-level tests run on both.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case memory, json
        var description: String { rawValue }
    }

    let model: ManagedObjectModel
    let store: any PersistentStore
    /// The JSON store's folder.
    private let directory = TemporaryDirectory()
    /// Whether each save checks that the JSON store's folder reads back as the store (off where
    /// saves run concurrently: another save may land between a save and its check).
    private let checksFolderAfterSaves: Bool

    init(kind: Kind = .memory, model: ManagedObjectModel = TestModels.tickers(), isReadOnly: Bool = false,
         checksFolderAfterSaves: Bool = true) {
        self.model = model
        self.checksFolderAfterSaves = checksFolderAfterSaves
        switch kind {
        case .memory: store = InMemoryStore(model: model, isReadOnly: isReadOnly)
        case .json: store = try! JSONStore(url: directory.file("store.jsonstore"), model: model)
        }
    }

    /// The in-memory store holding the state (the JSON store's own).
    var memory: InMemoryStore { (store as? InMemoryStore) ?? (store as! JSONStore).memory }

    func entity(_ name: String) -> EntityDescription { model.entity(named: name)! }

    /// A snapshot of `entity` with defaults, then `values` and `toOne` set by name.
    func snapshot(_ entity: String, _ values: [String: Value] = [:], toOne: [String: ObjectID] = [:],
                  version: Int64 = 0) -> Snapshot {
        let e = self.entity(entity)
        var s = Snapshot(defaultsFor: e)
        for (k, v) in values { s.values[e.attributeIndex(k)!] = v }
        for (k, id) in toOne { s.toOne[e.relationshipIndex(k)!] = id }
        s.version = version
        return s
    }

    /// An insert of a new `entity` object with a temporary ID.
    func insert(_ entity: String, _ values: [String: Value] = [:], toOne: [String: ObjectID] = [:],
                toMany: [String: [ObjectID]] = [:]) -> ObjectChange {
        let e = self.entity(entity)
        return ObjectChange(id: .temporary(entityIndex: e.index), snapshot: snapshot(entity, values, toOne: toOne),
                            toMany: lists(e, toMany))
    }

    /// An update of `id` from `base`, changing the named properties.
    func update(_ id: ObjectID, from base: Snapshot, _ values: [String: Value] = [:], toOne: [String: ObjectID?] = [:],
                toMany: [String: [ObjectID]] = [:]) -> ObjectChange {
        let e = model.entities[Int(id.entityIndex)]
        var s = base
        var changed = PropertyMask()
        for (k, v) in values {
            s.values[e.attributeIndex(k)!] = v
            changed.insert(e.attributeIndex(k)!)
        }
        for (k, target) in toOne {
            s.toOne[e.relationshipIndex(k)!] = target
            changed.insert(e.attributes.count + e.relationshipIndex(k)!)
        }
        for k in toMany.keys { changed.insert(e.attributes.count + e.relationshipIndex(k)!) }
        return ObjectChange(id: id, snapshot: s, committed: base, changed: changed, toMany: lists(e, toMany))
    }

    private func lists(_ e: EntityDescription, _ toMany: [String: [ObjectID]]) -> [Int: [ObjectID]] {
        Dictionary(uniqueKeysWithValues: toMany.map { (e.relationshipIndex($0.key)!, $0.value) })
    }

    /// Saves `changes`, failing on any conflict unless `resolve` says otherwise.
    @discardableResult
    func save(inserts: [ObjectChange] = [], updates: [ObjectChange] = [], deletes: [(ObjectID, Int64)] = [],
              resolve: (MergeConflict) -> ConflictResolution = { _ in .fail }) throws -> StoreSaveResult {
        var changes = StoreChangeSet()
        changes.inserts = inserts
        changes.updates = updates
        changes.deletes = deletes.map { (id: $0.0, version: $0.1) }
        let result = try store.save(changes, resolve: resolve)
        if checksFolderAfterSaves { try checkFolder() }
        return result
    }

    /// For a JSON store: expects the folder, read again, to hold what the store serves.
    func checkFolder(sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let json = store as? JSONStore else { return }
        let reopened = try JSONStore(url: try #require(json.url), model: model, readOnly: true)
        #expect(try JSONStoreTesting.contents(of: reopened) == JSONStoreTesting.contents(of: json), sourceLocation: sourceLocation)
    }

    /// Inserts each change in one save and returns their permanent IDs in order.
    func insertAll(_ inserts: [ObjectChange]) throws -> [ObjectID] {
        let result = try save(inserts: inserts)
        return inserts.map { result.permanentIDs[$0.id]! }
    }

    /// The committed snapshot of `id` (`nil` when the row is gone).
    func row(_ id: ObjectID) throws -> Snapshot? {
        try store.snapshots(for: [id])[id]
    }

    /// The committed contents of relationship `name` of `id`.
    func related(_ id: ObjectID, _ name: String) throws -> [ObjectID] {
        try store.relatedIDs(of: id, relationship: model.entities[Int(id.entityIndex)].relationshipIndex(name)!)
    }

    /// How many objects of `entity` (and its sub-entities) the store holds.
    func count(_ entity: String) throws -> Int {
        try store.count(for: StoreQuery(entity: self.entity(entity)))
    }
}
