import Foundation

/// Keeps the groups of an aggregate fetch live as the context changes — count and sum of
/// `volume` per `sector.name`, with a filter — without running `GROUP BY` again.
///
/// ```swift
/// var request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "active == YES"))
/// request.propertiesToFetch = [.key("sector.name"), .count(), .aggregate(.sum, "volume")]
/// request.propertiesToGroupBy = ["sector.name"]
/// request.sortDescriptors = [SortKey("count()", ascending: false)]
/// let controller = try AggregateResultsController(fetchRequest: request, context: stack.mainContext)
/// controller.delegate = frequencyView
/// try controller.performFetch()
/// for group in controller.groups { print(group["sector.name"], group["count()"]) }
/// ```
///
/// The request is a grouped dictionary fetch (``FetchRequest/propertiesToFetch`` with
/// aggregates, ``FetchRequest/propertiesToGroupBy``, ``FetchRequest/havingPredicate``;
/// its sort keys name result columns), and the groups are exactly those
/// ``ObjectContext/fetchDictionaries(_:)`` returns, in the same order — plus the context's
/// unsaved changes. ``performFetch()`` reads the store once and keeps, per matching object,
/// its group and the values its group's aggregates read. After each change event (a local
/// edit, a save, a merged importer save, a batch request, a remote change) it updates only
/// the groups the changed objects left or joined, from their old and new values: counts and
/// sums are adjusted, a minimum or maximum is recomputed (from the values held, not the
/// store) only when its value left the group. Objects a merge changed that are not
/// registered are decided from the state the save carried and the properties it changed;
/// only when a group key or an aggregated value reads through a relationship that changed
/// are they read, in one store query restricted to them. The delegate hears which groups
/// were inserted, deleted, updated or moved in the sort order (see
/// ``AggregateResultsControllerDelegate``).
///
/// A change to a related object that a group key or value reads through (renaming a sector
/// when grouping by `sector.name`), a reset, or a change made outside Quarry computes the
/// groups again from the store and reports the difference.
///
/// Not supported: ``FetchRequest/fetchLimit`` and ``FetchRequest/fetchOffset`` (show the
/// first groups of ``groups`` instead) and ungrouped requests (use a
/// ``FetchedResultsController``).
///
/// Concurrency: a controller belongs to its context's queue, like the context.
public final class AggregateResultsController: @unchecked Sendable {
    // State confined to `context.queue`.

    /// The request.
    public let fetchRequest: FetchRequest
    /// The context whose objects are aggregated.
    public let context: ObjectContext
    /// Receives the changes.
    public weak var delegate: AggregateResultsControllerDelegate?
    /// What the last change event cost (`nil` before the first).
    public internal(set) var lastUpdate: AggregateUpdateReport?
    /// The last change the controller could not apply, if any (also told to the delegate).
    public internal(set) var lastError: FetchedResultsError?

    let fetch: DictionaryFetch
    let entity: EntityDescription
    /// The plans of ``DictionaryFetch/keyPaths``, in order.
    let plans: [KeyPathPlan]
    let evaluator: PredicateEvaluator?
    /// The predicate over a save's carried state, when it reads the object's own properties only.
    let snapshotTest: ((SnapshotSubject) -> Bool)?
    /// `isOurs[e]`: whether objects of entity index `e` are aggregated.
    let isOurs: [Bool]
    /// By entity index: the property bits the predicate reads (every bit when it reads through
    /// a to-many), the bits of each key path's first key, and their union.
    let predicateBits: [UInt64]
    let keyPathBits: [[UInt64]]
    let relevantBits: [UInt64]
    /// By entity index: the bits of the properties that key paths read on related objects
    /// (`name` of `Sector` for `sector.name`): a change there regroups objects that are not
    /// themselves changed, so the groups are computed again.
    let dependencyBits: [UInt64]

    /// Per key path, its ``ToOneHop`` when it is one to-one step and an attribute: a merged
    /// save that moves objects between destinations whose values are kept is decided without a
    /// store query.
    let oneHops: [ToOneHop?]
    /// Per key path with a ``ToOneHop``: the destination attribute's value by destination, as
    /// read from the store; kept valid because a change to that attribute on any destination
    /// makes the controller compute every group again (``dependencyBits``), which forgets them.
    var relatedValues: [[ObjectID: Value]]
    /// The store queries the change event being handled made for ``relatedValues``.
    var relatedReads = 0

    var table: AggregateGroupTable
    /// The groups shown, in order (group IDs of ``table``).
    var order: [Int32] = []
    /// Each shown group's result, by group ID.
    var results: [Int32: [String: Value]] = [:]
    var observation: ObservationToken?
    var fetched = false

    /// Creates a controller.
    /// - Throws: ``QueryError`` for a request that is not grouped, has a fetch limit or
    ///   offset, or names an invalid key, aggregate, sort key or predicate.
    public init(fetchRequest: FetchRequest, context: ObjectContext) throws {
        self.fetchRequest = fetchRequest
        self.context = context
        let model = context.model
        let fetch = try DictionaryFetch(fetchRequest, model: model)
        guard fetch.groups else {
            throw QueryError.invalidOperand("an aggregate controller needs aggregates (count(), sum(volume)…) or propertiesToGroupBy; use a FetchedResultsController for rows")
        }
        guard fetchRequest.fetchLimit == 0, fetchRequest.fetchOffset == 0 else {
            throw QueryError.invalidOperand("an aggregate controller keeps every group live: fetchLimit and fetchOffset are not supported (show its first groups instead)")
        }
        let columns = Set(fetch.properties.map(\.name))
        for key in fetchRequest.sortDescriptors where !columns.contains(key.keyPath) {
            throw QueryError.invalidOperand("sort key '\(key.keyPath)' is not a result column (\(fetch.properties.map(\.name).joined(separator: ", ")))")
        }
        self.fetch = fetch
        let entity = fetch.query.entity
        self.entity = entity
        plans = try fetch.keyPaths.map { try KeyPathPlan($0, entity: entity, model: model) }
        evaluator = try fetchRequest.predicate.map { try PredicateEvaluator($0, entity: entity, model: model) }
        let predicate = fetchRequest.predicate ?? .truePredicate
        let predicatePlans = try predicate.keyPaths.map { try KeyPathPlan($0, entity: entity, model: model) }
        snapshotTest = predicatePlans.allSatisfy(\.isLocal)
            ? try SubjectPredicate<SnapshotSubject>.compile(predicate, entity: entity, model: model) : nil
        oneHops = plans.map(ToOneHop.init)
        relatedValues = plans.map { _ in [:] }
        let kinds = Set(fetchRequest.includesSubentities ? entity.selfAndDescendantIndices : [entity.index])
        isOurs = model.entities.indices.map(kinds.contains)

        func firstKeys(_ paths: [String]) -> Set<String> { Set(paths.compactMap { $0.split(separator: ".").first.map(String.init) }) }
        let predicateKeys = firstKeys(predicate.keyPaths)
        let predicateCrossesToMany = predicatePlans.contains(where: \.crossesToMany)
        let predicateBits: [UInt64] = model.entities.map { e in
            predicateCrossesToMany ? .max : FetchedResultsController.bits(of: predicateKeys, in: e)
        }
        let keyPathBits = fetch.keyPaths.map { path in model.entities.map { FetchedResultsController.bits(of: firstKeys([path]), in: $0) } }
        self.predicateBits = predicateBits
        self.keyPathBits = keyPathBits
        relevantBits = model.entities.indices.map { e in keyPathBits.reduce(predicateBits[e]) { $0 | $1[e] } }
        // The keys read on related objects: after each to-one step, the next key, on the
        // destination entity and its sub-entities.
        var dependency = [UInt64](repeating: 0, count: model.entities.count)
        for path in fetch.keyPaths + predicate.keyPaths {
            let plan = try KeyPathPlan(path, entity: entity, model: model)
            let keys = path.split(separator: ".").map(String.init)
            for (n, destination) in plan.entities.enumerated().dropFirst() where n < keys.count {
                for e in destination.selfAndDescendantIndices {
                    dependency[e] |= FetchedResultsController.bits(of: [keys[n]], in: model.entities[e])
                }
            }
        }
        dependencyBits = dependency
        table = AggregateGroupTable(fetch)
    }

    deinit { observation?.cancel() }

    // MARK: Groups

    /// How many groups there are.
    public var numberOfGroups: Int { order.count }

    /// The group at `index` (in the request's order).
    public func group(at index: Int) -> AggregateGroup {
        let g = order[index]
        return AggregateGroup(key: table.groupKeys[Int(g)], values: results[g] ?? [:])
    }

    /// Every group, in order: the rows ``ObjectContext/fetchDictionaries(_:)`` would return.
    public var groups: [AggregateGroup] { order.indices.map(group(at:)) }

    /// The index of the group whose group-by key values are `key`, if it is shown.
    public func index(ofGroupWithKey key: [Value]) -> Int? {
        order.firstIndex { table.groupKeys[Int($0)] == key }
    }

    // MARK: Fetching

    /// Computes the groups from the store (and the context's unsaved changes) and starts
    /// tracking changes.
    /// - Throws: the store's error, or ``QueryError`` for an integer sum beyond 64 bits.
    /// ``performFetch(cancellation:completion:)`` reads the store off the context's queue.
    public func performFetch() throws {
        context.checkQueue()
        try install(try buildTable())
    }

    /// Makes `built` the groups and starts tracking changes (on the context's queue).
    func install(_ built: AggregateGroupTable) throws {
        let (order, results) = try Self.arrange(built, fetch: fetch)
        forgetRelatedValues()
        table = built
        self.order = order
        self.results = results
        fetched = true
        if observation == nil {
            observation = context.addObjectsDidChangeObserver { [weak self] change in self?.handle(change) }
        }
    }

    /// A table of every matching object's contribution: from the store's rows when the
    /// context has no unsaved changes and no parent, else from the objects themselves.
    func buildTable() throws -> AggregateGroupTable {
        if context.parent == nil && !context.hasChanges {
            return try Self.readTable(fetch: fetch, store: context.readStore)
        }
        var built = AggregateGroupTable(fetch)
        var query = fetch.query
        query.sortDescriptors = []
        let objects = try context.objectIDs(for: query).map(context.object(with:))
        try context.faultIn(objects)
        for object in objects { _ = built.upsert(object.objectID, keyValues: keyValues(of: object)) }
        return built
    }

    /// The table of every object `fetch` matches in `store`, from its rows (any thread).
    static func readTable(fetch: DictionaryFetch, store: any PersistentStore) throws -> AggregateGroupTable {
        var built = AggregateGroupTable(fetch)
        let count = fetch.keyPaths.count
        var values = [Value](repeating: .null, count: count)
        try store.forEachKeyedRow(for: fetch.query, keyPaths: fetch.keyPaths) { row in
            for k in 0..<count { values[k] = row.value(ofKey: k) }
            _ = built.upsert(row.objectID, keyValues: values)
        }
        return built
    }

    /// The shown groups of `table` in order, and their results.
    static func arrange(_ table: AggregateGroupTable, fetch: DictionaryFetch) throws -> (order: [Int32], results: [Int32: [String: Value]]) {
        var results: [Int32: [String: Value]] = [:]
        for g in table.groupKeys.indices.map(Int32.init) where table.isPresent(g) {
            let row = try table.result(of: g)
            if let having = fetch.having, !having.evaluate(row) { continue }
            results[g] = row
        }
        let order = results.keys.sorted { precedes($0, $1, results: results, table: table, fetch: fetch) }
        return (order, results)
    }

    /// Whether group `a` comes before group `b`: by ``DictionaryFetch/order(_:_:)``, then by
    /// their group keys, then by ID, so that the order is total.
    static func precedes(_ a: Int32, _ b: Int32, results: [Int32: [String: Value]], table: AggregateGroupTable, fetch: DictionaryFetch) -> Bool {
        let o = fetch.order(results[a]!, results[b]!)
        if o != 0 { return o < 0 }
        for (x, y) in zip(table.groupKeys[Int(a)], table.groupKeys[Int(b)]) {
            let c = ValueOrdering.compare(x, y)
            if c != 0 { return c < 0 }
        }
        return a < b
    }

    /// The values of ``DictionaryFetch/keyPaths`` for a registered object (its current state).
    func keyValues(of object: ManagedObject) -> [Value] {
        let subject = ObjectSubject(object: object)
        return plans.map { $0.singleValue(of: subject) }
    }

    /// Tells the delegate about a failure and keeps it.
    func report(_ error: FetchedResultsError) {
        lastError = error
        delegate?.controller(self, didFailWith: error)
    }
}
