import Foundation

/// One row of a SQL store's `Z_HISTORYTRANSACTION`, as every SQL back end stores it.
struct HistoryTransactionRow {
    /// `Z_TOKEN`.
    var token: Int64
    /// `Z_TIMESTAMP`: seconds since 2001-01-01.
    var timestamp: Double
    /// `Z_AUTHOR`.
    var author: String?
    /// `Z_ORIGIN`: the writing store's origin UUID, as text.
    var origin: String?
    /// `Z_PROCESS`.
    var processID: Int64

    /// The transaction this row records, with no changes yet (an origin that does not read as
    /// a UUID reads as the nil UUID).
    var transaction: HistoryTransaction {
        HistoryTransaction(token: HistoryToken(token), timestamp: Date(timeIntervalSinceReferenceDate: timestamp), author: author,
                           origin: origin.flatMap(UUID.init(uuidString:)) ?? Self.unknownOrigin,
                           processID: Int32(truncatingIfNeeded: processID), changes: [])
    }

    /// The origin of a row whose origin is not a UUID.
    static let unknownOrigin = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

/// One row of a SQL store's `Z_HISTORYCHANGE` (its token and position apart), as every SQL
/// back end stores it: an updated or deleted object, or a run of inserted objects of one
/// entity with consecutive keys.
struct HistoryChangeRow {
    /// `Z_ENTITY`: the entity's name (so renumbering entities keeps history readable).
    var entity: String
    /// `Z_PK`: the object's key, the first of a run.
    var primaryKey: Int64
    /// `Z_COUNT`: how many objects the row stands for (consecutive keys from ``primaryKey``).
    var count: Int64
    /// `Z_TYPE`: ``HistoryChangeType/code``.
    var typeCode: Int64
    /// `Z_KEYS`: an update's changed property names, sorted, comma-separated.
    var keys: String?
    /// `Z_TOMBSTONE`: a delete's preserved values (``HistoryTombstone``).
    var tombstone: String?

    /// Appends the changes this row stands for to `changes`; none when its entity or type is
    /// unknown to `model` (an entity a migration removed). `keyLists` keeps each `Z_KEYS` text
    /// read so far split (a save's updates mostly change the same keys).
    func appendChanges(to changes: inout [HistoryChange], model: ManagedObjectModel, keyLists: inout [String: [String]]) {
        guard let entity = model.entity(named: entity), let type = HistoryChangeType(code: typeCode) else { return }
        let changedKeys = keys.map { (text: String) -> [String] in
            if let split = keyLists[text] { return split }
            let split = text.isEmpty ? [] : text.split(separator: ",").map(String.init)
            keyLists[text] = split
            return split
        } ?? []
        let tombstone = tombstone.map { HistoryTombstone.decode($0, entity: entity) } ?? [:]
        for offset in 0..<max(1, count) {
            changes.append(HistoryChange(objectID: ObjectID(entityIndex: entity.index, primaryKey: primaryKey + offset),
                                         type: type, changedKeys: changedKeys, tombstone: tombstone))
        }
    }
}

extension SaveChanges {
    /// Calls `body` with each history change row of this save, in `Z_SEQ` order: a row per run
    /// of inserted keys, then per run of updated objects, then per run of deleted objects.
    ///
    /// A run is consecutive keys of one entity, in the save's order: updated objects whose
    /// changed keys are the same, deleted objects without a tombstone (from `tombstones`). A
    /// batch request changing a range of rows writes a handful of history rows, not one per
    /// object; readers expand every row by its count (``HistoryChangeRow/appendChanges(to:model:keyLists:)``).
    func forEachHistoryRow(model: ManagedObjectModel, tombstones: [ObjectID: String],
                           _ body: (HistoryChangeRow) throws -> Void) rethrows {
        for run in insertRuns {
            try body(HistoryChangeRow(entity: model.entities[Int(run.first.entityIndex)].name, primaryKey: run.first.primaryKey,
                                      count: Int64(run.count), typeCode: HistoryChangeType.insert.code))
        }
        // Each distinct (entity, changed properties) is spelled once: a save updating 100,000
        // objects the same way joins its key names once, not 100,000 times.
        let bitsKnown = changedBits.count == updated.count
        var spelled: [HistoryKeysSpelling: String] = [:]
        var pending: HistoryChangeRow?
        for (i, id) in updated.enumerated() {
            let keys: String?
            if bitsKnown, changedBits[i] != .max {
                let spelling = HistoryKeysSpelling(entity: id.entityIndex, bits: changedBits[i])
                if let known = spelled[spelling] {
                    keys = known
                } else {
                    keys = changedKeys[id].map { $0.sorted().joined(separator: ",") }
                    spelled[spelling] = keys
                }
            } else {
                keys = changedKeys[id].map { $0.sorted().joined(separator: ",") }
            }
            let entity = model.entities[Int(id.entityIndex)].name
            if let run = pending, run.extends(to: id.primaryKey, entity: entity), run.keys == keys {
                pending!.count += 1
                continue
            }
            if let run = pending { try body(run) }
            pending = HistoryChangeRow(entity: entity, primaryKey: id.primaryKey, count: 1, typeCode: HistoryChangeType.update.code, keys: keys)
        }
        if let run = pending { try body(run) }
        pending = nil
        for id in deleted {
            let entity = model.entities[Int(id.entityIndex)].name
            let tombstone = tombstones[id]
            if tombstone == nil, let run = pending, run.tombstone == nil, run.extends(to: id.primaryKey, entity: entity) {
                pending!.count += 1
                continue
            }
            if let run = pending { try body(run) }
            pending = HistoryChangeRow(entity: entity, primaryKey: id.primaryKey, count: 1, typeCode: HistoryChangeType.delete.code, tombstone: tombstone)
        }
        if let run = pending { try body(run) }
    }
}

extension HistoryChangeRow {
    /// Whether the object `primaryKey` of `entity` is the next of this row's run.
    func extends(to primaryKey: Int64, entity: String) -> Bool {
        self.entity == entity && self.primaryKey + count == primaryKey
    }
}

/// An entity and the changed properties of an update (``SaveChanges/changedBits``, below 64
/// properties): the key under which a history writer spells the changed keys once.
private struct HistoryKeysSpelling: Hashable {
    let entity: Int32
    let bits: UInt64
}
