import Foundation
import GRDB
@testable import Quarry
import QuarryTestSupport

/// Builds change sets for store tests by entity and property name.
struct ChangeMaker {
    let model: ManagedObjectModel

    func entity(_ name: String) -> EntityDescription { model.entity(named: name)! }

    /// A new object of `entity` with a temporary ID.
    func insert(_ entityName: String, _ values: [String: Value] = [:], toOne: [String: ObjectID] = [:],
                toMany: [String: [ObjectID]] = [:]) -> ObjectChange {
        let e = entity(entityName)
        var snapshot = Snapshot(defaultsFor: e)
        for (k, v) in values { snapshot.values[e.attributeIndex(k)!] = v }
        for (k, id) in toOne { snapshot.toOne[e.relationshipIndex(k)!] = id }
        var many: [Int: [ObjectID]] = [:]
        for (k, ids) in toMany { many[e.relationshipIndex(k)!] = ids }
        return ObjectChange(id: .temporary(entityIndex: e.index), snapshot: snapshot, toMany: many)
    }

    /// An update of `id` from its committed snapshot, changing `values`, `toOne` and `toMany`.
    func update(_ id: ObjectID, from committed: Snapshot, _ values: [String: Value] = [:], toOne: [String: ObjectID?] = [:],
                toMany: [String: [ObjectID]] = [:]) -> ObjectChange {
        let e = model.entities[Int(id.entityIndex)]
        var snapshot = committed
        var changed = PropertyMask()
        for (k, v) in values { let i = e.attributeIndex(k)!; snapshot.values[i] = v; changed.insert(i) }
        for (k, t) in toOne { let r = e.relationshipIndex(k)!; snapshot.toOne[r] = t; changed.insert(e.attributes.count + r) }
        var many: [Int: [ObjectID]] = [:]
        for (k, ids) in toMany { let r = e.relationshipIndex(k)!; many[r] = ids; changed.insert(e.attributes.count + r) }
        return ObjectChange(id: id, snapshot: snapshot, committed: committed, changed: changed, toMany: many)
    }
}

extension SQLiteStore {
    /// Saves inserts only and returns their permanent IDs in order.
    @discardableResult
    func insert(_ changes: [ObjectChange]) throws -> [ObjectID] {
        var set = StoreChangeSet()
        set.inserts = changes
        let result = try save(set) { _ in .fail }
        return changes.map { result.permanentIDs[$0.id]! }
    }

    /// Saves `changes` as updates.
    @discardableResult
    func update(_ changes: [ObjectChange], resolve: (MergeConflict) -> ConflictResolution = { _ in .fail }) throws -> StoreSaveResult {
        var set = StoreChangeSet()
        set.updates = changes
        return try save(set, resolve: resolve)
    }

    /// The one committed snapshot of `id`.
    func snapshot(_ id: ObjectID) throws -> Snapshot? { try snapshots(for: [id])[id] }
}

/// Opens a plain GRDB connection on a store file, to inspect it as `sqlite3` would.
func inspect<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(path: url.path, configuration: configuration).read(body)
}
