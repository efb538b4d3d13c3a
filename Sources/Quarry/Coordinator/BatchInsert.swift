/// Rows to write straight to a store, without managed objects or a context: Core Data's
/// `NSBatchInsertRequest`.
///
/// Each row gives values for the request's ``attributes`` and destinations for its to-one
/// ``relationships`` (permanent IDs of objects already in the store), in the same order.
/// Attributes not named keep their model defaults. The inverse of each to-one (a to-many on
/// the destination) is stored through the same foreign key, so it is complete too.
///
/// ```swift
/// var request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"], relationships: ["sector"])
/// request.append([.string("ACME"), .double(12.5)], destinations: [techSectorID])
/// let saved = try coordinator.batchInsert(request)
/// mainContext.perform { mainContext.merge(fromDidSave: saved) }
/// ```
public struct BatchInsertRequest: Sendable {
    /// The entity of every row.
    public let entityName: String
    /// The attributes each row gives a value for, in order.
    public let attributes: [String]
    /// The to-one relationships each row gives a destination for, in order.
    public let relationships: [String]
    /// The rows: attribute values (aligned with ``attributes``) and destinations (aligned
    /// with ``relationships``).
    public private(set) var rows: [(values: [Value], destinations: [ObjectID?])] = []

    /// What happens to a row whose uniqueness-constraint key an object already has (or an
    /// earlier row of the request has): ``BatchInsertConflictPolicy/fail`` by default.
    public var uniquenessConflicts = BatchInsertConflictPolicy.fail
    /// Whether ``PersistentStack/execute(_:)-(BatchInsertRequest)`` merges the insert into the
    /// main context (as an importer's save is merged): `true` by default. ``StoreCoordinator/batchInsert(_:)``
    /// never tells a context, as Core Data's batch insert does not.
    public var mergesChanges = true
    /// The author recorded in persistent history (`"batch insert"` when `nil`).
    public var author: String?

    /// Creates an empty request.
    public init(entityName: String, attributes: [String], relationships: [String] = []) {
        self.entityName = entityName
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Adds one row.
    public mutating func append(_ values: [Value], destinations: [ObjectID?] = []) {
        rows.append((values, destinations))
    }

    /// Reserves room for `count` rows.
    public mutating func reserveCapacity(_ count: Int) { rows.reserveCapacity(count) }
}

/// What a batch insert does with a row whose uniqueness-constraint key is taken.
public enum BatchInsertConflictPolicy: Sendable, Equatable {
    /// The request is refused with the store's uniqueness error; nothing is written.
    case fail
    /// An upsert, as Core Data's batch insert does under a property-trump merge policy: the row
    /// updates the object holding its key — the attributes and to-ones the request gives
    /// overwrite it, its other properties stay. Rows of the request sharing a key are one
    /// object, the later row's values winning. A key holding `nil` never matches.
    case update
}

/// Why a ``BatchInsertRequest`` was refused; nothing was written.
public enum BatchInsertError: Error, Equatable, CustomStringConvertible {
    /// The model has no such entity, or it is abstract.
    case invalidEntity(String)
    /// The entity has no stored attribute or to-one relationship of this name (or it is a
    /// transient attribute, or a relationship whose inverse is an ordered or many-to-many).
    case unsupportedKey(entity: String, key: String, reason: String)
    /// A row has the wrong number of values or destinations.
    case rowShape(entity: String, row: Int, expected: Int, got: Int)
    /// A value that does not fit its attribute, or a missing required one.
    case invalidValue(entity: String, row: Int, key: String, reason: String)
    /// An upsert (``BatchInsertConflictPolicy/update``) with rows from a sequence: rows of the
    /// request sharing a key are one object, so an upsert needs every row's key at once.
    case upsertNeedsAllRows(entity: String)

    /// A message naming the entity, the row (counted from 0) and the key at fault.
    public var description: String {
        switch self {
        case .invalidEntity(let e): return "batch insert: no concrete entity '\(e)' in the model"
        case .unsupportedKey(let e, let k, let why): return "batch insert into '\(e)': key '\(k)' \(why)"
        case .rowShape(let e, let r, let expected, let got): return "batch insert into '\(e)', row \(r): \(got) values, expected \(expected)"
        case .invalidValue(let e, let r, let k, let why): return "batch insert into '\(e)', row \(r), key '\(k)': \(why)"
        case .upsertNeedsAllRows(let e):
            return "batch insert into '\(e)': an upsert (uniquenessConflicts = .update) needs every row's key at once; append the rows to the request instead of passing a sequence"
        }
    }
}

extension StoreCoordinator {
    /// Writes `request`'s rows to the store in one transaction (all or none) and returns what
    /// a did-save carries: the new permanent IDs in row order, with the state each row was
    /// stored with.
    ///
    /// Like Core Data's batch insert, no context is told: pass the result to
    /// ``ObjectContext/merge(fromDidSave:)`` for contexts (and their fetched-results
    /// controllers) to see the new objects. Values are checked against the model's types,
    /// required attributes and relationship destinations before anything is written;
    /// validation predicates and validation hooks are not run.
    ///
    /// - Throws: ``BatchInsertError`` naming the row and key at fault, or the store's error.
    @discardableResult
    public func batchInsert(_ request: BatchInsertRequest) throws -> SaveChanges {
        let rows = try BatchInsertRows(request, model: model)
        return try retryingConflicts { try store.save(try rows.changes(on: store, model: model)) { _ in .fail }.changes }
    }

    /// Runs a batch insert (see ``batchInsert(_:)``) and tells this coordinator's observers
    /// when ``BatchInsertRequest/mergesChanges`` (so a stack merges it into its main context).
    /// The result counts the rows written (one per object: rows sharing a key count once) and
    /// lists the objects, inserted ones first (in row order), then updated ones.
    /// - Throws: ``BatchInsertError``, ``BatchRequestError/keptConflicting(attempts:)``, or the store's error.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        let rows = try BatchInsertRows(request, model: model)
        return try retryingConflicts {
            let changes = try rows.changes(on: store, model: model)
            guard !changes.isEmpty else { return BatchResult(count: 0, objectIDs: []) }
            let saved = try commitBatch(changes, notifies: request.mergesChanges)
            let ids = saved.changes.inserted + saved.changes.updated
            return BatchResult(count: ids.count, objectIDs: ids, changes: saved.changes, historyToken: saved.historyToken)
        }
    }
}

/// A ``BatchInsertRequest``'s rows checked against the model (types, required values,
/// destinations) and turned into stored states, before anything is read or written.
struct BatchInsertRows {
    let entity: EntityDescription
    let attributeIndexes: [Int]
    let relationshipIndexes: [Int]
    /// Each row's state, in request order.
    let snapshots: [Snapshot]
    let policy: BatchInsertConflictPolicy
    let author: String

    /// - Throws: ``BatchInsertError`` naming the row and key at fault.
    init(_ request: BatchInsertRequest, model: ManagedObjectModel) throws {
        let checker = try BatchInsertRowChecker(request, model: model)
        if !request.rows.isEmpty { try checker.requireEveryAttribute() }
        var snapshots: [Snapshot] = []
        snapshots.reserveCapacity(request.rows.count)
        for (n, row) in request.rows.enumerated() {
            snapshots.append(try checker.snapshot(values: row.values, destinations: row.destinations, row: n))
        }
        entity = checker.entity
        attributeIndexes = checker.attributeIndexes
        relationshipIndexes = checker.relationshipIndexes
        self.snapshots = snapshots
        policy = request.uniquenessConflicts
        author = request.author ?? "batch insert"
    }

    /// The store changes that write the rows: inserts, and under
    /// ``BatchInsertConflictPolicy/update`` updates of the objects holding their keys (read now,
    /// each checked against the version read).
    /// - Throws: ``BatchInsertError`` for a row whose keys name two objects; the store's error.
    func changes(on store: PersistentStore, model: ManagedObjectModel) throws -> StoreChangeSet {
        var changes: StoreChangeSet
        if policy == .update && !entity.uniquenessConstraints.isEmpty {
            changes = try BatchInsertUpsert(entity: entity, givenAttributes: attributeIndexes, givenRelationships: relationshipIndexes)
                .changes(for: snapshots, store: store, model: model)
        } else {
            changes = StoreChangeSet()
            changes.inserts = snapshots.map { ObjectChange(id: .temporary(entityIndex: entity.index), snapshot: $0) }
        }
        changes.author = author
        return changes
    }
}
