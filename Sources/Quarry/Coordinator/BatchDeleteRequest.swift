/// Objects deleted in one request without a context or managed objects: Core Data's
/// `NSBatchDeleteRequest`, from a fetch request or a list of object IDs.
///
/// ```swift
/// let request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Sector",
///                                                             predicate: try ObjectPredicate(format: "name == 'Energy'")))
/// let result = try stack.execute(request)   // cascades, merged into the main context
/// ```
///
/// Where it differs from Core Data: Core Data's batch delete ignores most delete rules (only
/// cascades the database itself enforces run) and leaves dangling references for the app to
/// clean up. Quarry's honours every rule, exactly as a context's delete does: *cascade* deletes
/// the destinations (transitively), *nullify* removes the deleted objects from their inverses
/// (the objects holding them are updated, and merged as such), *deny* refuses the whole request
/// naming the relationship and how many objects hold it, *no action* leaves the destinations as
/// they are. A batch delete of a million rows is then as safe as deleting them one by one,
/// without loading one managed object.
public struct BatchDeleteRequest: Sendable {
    /// What to delete: the objects a fetch selects, or a list of IDs.
    public enum Selection: Sendable {
        /// The objects the fetch request's entity and predicate select (its sort, limit and
        /// offset apply too).
        case fetch(FetchRequest)
        /// These objects (IDs of objects no longer in the store are skipped).
        case objectIDs([ObjectID])
    }

    /// What to delete.
    public var selection: Selection
    /// Whether ``BatchResult/objectIDs`` lists the selected objects.
    public var returnsObjectIDs = false
    /// Whether the stack merges the result into its contexts (see
    /// ``BatchUpdateRequest/mergesChanges``).
    public var mergesChanges = true
    /// The author recorded in persistent history (`nil`: "batch delete").
    public var author: String?
    /// Called on the executing thread as objects are planned (cascades found), and once written.
    public var progress: (@Sendable (BatchProgress) -> Void)?

    /// Deletes the objects `fetchRequest` selects.
    public init(fetchRequest: FetchRequest) { selection = .fetch(fetchRequest) }

    /// Deletes the objects `objectIDs` name (permanent IDs).
    public init(objectIDs: [ObjectID]) { selection = .objectIDs(objectIDs) }
}

extension StoreCoordinator {
    /// Deletes the objects `request` selects, with every delete rule applied, in one store
    /// transaction: all objects or none.
    ///
    /// The objects and the relationships their delete rules follow are read as rows (no
    /// managed objects, no context), and every delete and update is checked against the row
    /// version it was planned from: when another writer changed one of them in between, the
    /// request runs again from a fresh read (up to three times). Recorded in persistent
    /// history like a save and, with ``BatchDeleteRequest/mergesChanges``, merged by the stack
    /// into its main context: deleted objects there become deleted faults, and its
    /// fetched-results controllers remove their rows.
    /// - Throws: ``BatchRequestError`` (a deny rule, a required relationship a nullify would
    ///   empty; nothing deleted), ``QueryError`` for a bad predicate, ``StoreError``.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        // What each attempt selects: the fetch, run afresh, or the given IDs, each once.
        let select: () throws -> [ObjectID]
        switch request.selection {
        case .fetch(let fetch):
            guard let entity = model.entity(named: fetch.entityName) else { throw BatchRequestError.invalidEntity(fetch.entityName) }
            let query = StoreQuery(entity: entity, includesSubentities: fetch.includesSubentities, predicate: fetch.predicate,
                                   sortDescriptors: fetch.sortDescriptors, limit: fetch.fetchLimit, offset: fetch.fetchOffset)
            select = { try self.store.objectIDs(for: query) }
        case .objectIDs(let ids):
            if let bad = ids.first(where: { $0.isTemporary || !model.entities.indices.contains(Int($0.entityIndex)) }) {
                throw BatchRequestError.invalidKey(entity: "?", key: bad.description, reason: "is not the ID of a saved object")
            }
            var seen = Set<ObjectID>()
            let unique = ids.filter { seen.insert($0).inserted }
            select = { unique }
        }
        return try retryingConflicts {
            var selected = try select()
            var planner = BatchDeletePlanner(store: store, progress: request.progress)
            try planner.delete(selected)
            selected = selected.filter(planner.isDeleted)
            var changes = try planner.changes()
            guard !changes.isEmpty else { return BatchResult(count: 0, objectIDs: request.returnsObjectIDs ? [] : nil) }
            changes.author = request.author ?? "batch delete"
            let saved = try commitBatch(changes, notifies: request.mergesChanges)
            request.progress?(BatchProgress(done: changes.deletes.count, total: changes.deletes.count, written: true))
            return BatchResult(count: selected.count, objectIDs: request.returnsObjectIDs ? selected.sorted() : nil,
                               changes: saved.changes, historyToken: saved.historyToken)
        }
    }
}
