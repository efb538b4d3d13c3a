import Foundation

/// Attributes of every object a predicate selects, set in one request without a context or
/// managed objects: Core Data's `NSBatchUpdateRequest`.
///
/// ```swift
/// var request = try BatchUpdateRequest(entityName: "Ticker",
///                                      predicate: ObjectPredicate(format: "sector.name == 'Energy'"),
///                                      setting: "price = price * 1.1, symbol = uppercase(symbol)")
/// request.returnsObjectIDs = true
/// let result = try stack.execute(request)   // merged into the main context and its controllers
/// ```
///
/// Every expression reads the object as it was before the request (`a = b, b = a` swaps).
/// Unlike Core Data's, a batch update checks what the model says of each new value (its type,
/// required, minimum and maximum, pattern, uniqueness constraints) and refuses the whole
/// request when one fails, and it is recorded in persistent history and merged like a save.
public struct BatchUpdateRequest: Sendable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// Which objects (`nil`: all of them).
    public var predicate: ObjectPredicate?
    /// Whether objects of sub-entities are updated too.
    public var includesSubentities = true
    /// The new value of each attribute, as an expression over the object's own attributes, in
    /// the order they are checked.
    public var propertiesToUpdate: [(key: String, value: ValueExpression)]
    /// Whether ``BatchResult/objectIDs`` lists the updated objects.
    public var returnsObjectIDs = false
    /// Whether the stack merges the result into its contexts (and their fetched-results
    /// controllers) as it does an importer's save. `false` leaves it to the caller, as Core Data
    /// does: pass ``BatchResult/changes`` to ``ObjectContext/merge(fromDidSave:)``. Other
    /// processes and hosts see the change through persistent history either way.
    public var mergesChanges = true
    /// The author recorded in persistent history (`nil`: "batch update").
    public var author: String?
    /// Called on the executing thread as objects are read and computed, and once written.
    public var progress: (@Sendable (BatchProgress) -> Void)?

    /// Creates a request setting `propertiesToUpdate`.
    public init(entityName: String, predicate: ObjectPredicate? = nil, propertiesToUpdate: [(key: String, value: ValueExpression)]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// Creates a request from assignments written as text: `key = expression, …` (see
    /// ``ValueExpression`` for the expressions).
    /// - Throws: ``QueryError`` naming the column at fault.
    public init(entityName: String, predicate: ObjectPredicate? = nil, setting assignments: String) throws {
        var parser = try ValueExpressionParser(assignments)
        self.init(entityName: entityName, predicate: predicate, propertiesToUpdate: try parser.parseAssignments())
    }
}

extension StoreCoordinator {
    /// Sets the attributes `request` names on every object it selects, in one store
    /// transaction: all objects or none.
    ///
    /// The objects are read as rows (no managed objects, no context); each new value is
    /// computed, converted to its attribute's type and checked against the model, and every
    /// write is checked against the row version it was computed from. When another writer
    /// changed one of the objects in between, the request runs again from a fresh read (up to
    /// three times). The commit is recorded in persistent history like a save and, with
    /// ``BatchUpdateRequest/mergesChanges``, merged by the stack into its main context.
    /// - Throws: ``BatchRequestError`` (nothing written), ``QueryError`` for a bad predicate,
    ///   ``StoreError`` (a uniqueness constraint, a read-only store, an I/O failure).
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        let plan = try BatchUpdatePlan(request, model: model)
        // One statement when the store can compute every value exactly as Swift would.
        if let store = store as? SetBasedBatchUpdating, let setBased = SetBasedBatchUpdate(plan, now: Date()),
           let saved = try store.runSetBased(setBased, author: request.author ?? "batch update") {
            if request.mergesChanges { announce(saved.changes) }
            let updated = saved.changes.updated
            request.progress?(BatchProgress(done: updated.count, total: updated.count, written: true))
            return BatchResult(count: updated.count, objectIDs: request.returnsObjectIDs ? updated : nil,
                               changes: saved.changes, historyToken: saved.historyToken)
        }
        return try retryingConflicts {
            let ids = try store.objectIDs(for: plan.query)
            var changes = StoreChangeSet()
            changes.author = request.author ?? "batch update"
            changes.updates.reserveCapacity(ids.count)
            var failures = BatchFailures()
            var updated: [ObjectID] = []
            updated.reserveCapacity(ids.count)
            let now = Date()
            try store.forEachSnapshotChunk(of: ids) { chunk, rows in
                for id in chunk {
                    // Gone since the IDs were read: as if deleted before the request.
                    guard let old = rows[id] else { continue }
                    var new = old
                    plan.apply(to: &new, from: old, id: id, now: now, failures: &failures)
                    changes.updates.append(ObjectChange(id: id, snapshot: new, committed: old, changed: plan.mask(of: id)))
                    updated.append(id)
                }
                request.progress?(BatchProgress(done: chunk.endIndex, total: ids.count, written: false))
            }
            try failures.throwFirst()
            guard !changes.updates.isEmpty else { return BatchResult(count: 0, objectIDs: request.returnsObjectIDs ? [] : nil) }
            let saved = try commitBatch(changes, notifies: request.mergesChanges)
            request.progress?(BatchProgress(done: ids.count, total: ids.count, written: true))
            return BatchResult(count: updated.count, objectIDs: request.returnsObjectIDs ? updated : nil,
                               changes: saved.changes, historyToken: saved.historyToken)
        }
    }

    /// How many rows a batch request reads per query.
    static let batchReadSize = 10_000
}

/// A ``BatchUpdateRequest`` checked against the model: each expression's kind against its
/// attribute's type, and per concrete entity (the request's and its sub-entities') the
/// attribute indexes it writes and reads and the changed-property mask.
struct BatchUpdatePlan {
    let query: StoreQuery
    private let entityName: String
    /// Per assignment: the attribute (as the request's entity describes it) and the expression.
    let assignments: [(attribute: AttributeDescription, value: ValueExpression)]
    /// Per concrete entity index: where each assignment writes, where each key read is, the mask.
    private let layouts: [Int: (targets: [Int], keys: [String: Int], mask: PropertyMask)]

    init(_ request: BatchUpdateRequest, model: ManagedObjectModel) throws {
        guard let entity = model.entity(named: request.entityName) else { throw BatchRequestError.invalidEntity(request.entityName) }
        entityName = entity.name
        let name = entity.name
        func attribute(_ key: String) throws -> AttributeDescription {
            guard let a = entity.attributeIndex(key) else {
                let reason = entity.relationshipIndex(key) != nil ? "is a relationship (a batch update sets attributes)" : "is not an attribute"
                throw BatchRequestError.invalidKey(entity: name, key: key, reason: reason)
            }
            return entity.attributes[a]
        }
        var read: [String] = []
        var assignments: [(attribute: AttributeDescription, value: ValueExpression)] = []
        for (key, value) in request.propertiesToUpdate {
            let target = try attribute(key)
            guard !target.isTransient else { throw BatchRequestError.invalidKey(entity: name, key: key, reason: "is transient (never stored)") }
            guard target.type != .transformable, target.type != .undefined else {
                throw BatchRequestError.invalidKey(entity: name, key: key, reason: "is \(target.type.rawValue) (a batch update sets stored values only)")
            }
            guard !assignments.contains(where: { $0.attribute.name == target.name }) else {
                throw BatchRequestError.invalidKey(entity: name, key: key, reason: "is set twice")
            }
            let kind: ValueKind
            do {
                kind = try value.kind { k in
                    let a = try attribute(k)
                    if !read.contains(k) { read.append(k) }
                    return ValueKind(a.type)
                }
            } catch let error as ValueExpressionError {
                throw BatchRequestError.invalidExpression(entity: name, key: key, expression: value.description, reason: error.reason)
            }
            guard kind.fits(target.type) else {
                throw BatchRequestError.invalidExpression(entity: name, key: key, expression: value.description,
                                                          reason: "gives a \(kind.rawValue), '\(key)' holds \(target.type.rawValue)")
            }
            assignments.append((target, value))
        }
        guard !assignments.isEmpty else {
            throw BatchRequestError.invalidKey(entity: name, key: "(none)", reason: "is not updated: the request sets no attribute")
        }
        self.assignments = assignments
        var layouts: [Int: (targets: [Int], keys: [String: Int], mask: PropertyMask)] = [:]
        for e in entity.selfAndDescendantIndices {
            let concrete = model.entities[e]
            // A sub-entity has every attribute of its parent, by name.
            let targets = assignments.map { concrete.attributeIndex($0.attribute.name)! }
            var mask = PropertyMask()
            for t in targets { mask.insert(t) }
            layouts[e] = (targets, Dictionary(uniqueKeysWithValues: read.map { ($0, concrete.attributeIndex($0)!) }), mask)
        }
        self.layouts = layouts
        query = StoreQuery(entity: entity, includesSubentities: request.includesSubentities, predicate: request.predicate)
    }

    /// The changed-property mask of an object `id` of the request's entity or a sub-entity.
    func mask(of id: ObjectID) -> PropertyMask { layouts[Int(id.entityIndex)]?.mask ?? PropertyMask() }

    /// Writes each assignment's value for the object `id` whose state was `old` into `new`,
    /// recording what fails in `failures` (the value is then left as it was).
    func apply(to new: inout Snapshot, from old: Snapshot, id: ObjectID, now: Date, failures: inout BatchFailures) {
        guard let layout = layouts[Int(id.entityIndex)] else { return }
        for (assignment, target) in zip(assignments, layout.targets) {
            if let stored = value(of: assignment.value, for: assignment.attribute, id: id, now: now, failures: &failures,
                                  read: { old.values[layout.keys[$0]!] }) {
                new.values[target] = stored
            }
        }
    }

    /// `expression`'s value for the object `id` (whose keys `read` gives), converted to
    /// `attribute`'s type and checked against its rules; `nil`, with the reason recorded in
    /// `failures`, when it cannot be computed, converted or kept.
    func value(of expression: ValueExpression, for attribute: AttributeDescription, id: ObjectID, now: Date,
               failures: inout BatchFailures, read: (String) -> Value) -> Value? {
        let value: Value
        do {
            value = try expression.evaluate(read, now: now)
        } catch {
            failures.add(entity: entityName, key: attribute.name, reason: "cannot be computed: \(error)", id: id)
            return nil
        }
        guard let stored = value.coerced(to: attribute.type) else {
            failures.add(entity: entityName, key: attribute.name, reason: "cannot hold \(value) (\(attribute.type.rawValue))", id: id)
            return nil
        }
        if let rule = attribute.ruleViolation(of: stored) {
            failures.add(entity: entityName, key: attribute.name, reason: rule, id: id)
            return nil
        }
        return stored
    }
}
