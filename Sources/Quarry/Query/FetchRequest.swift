/// What to fetch: an entity, a filter, an order and a window. The form of the results is the
/// method's: ``ObjectContext/fetch(_:)`` for objects, ``ObjectContext/fetchObjectIDs(_:)``,
/// ``ObjectContext/fetchDictionaries(_:)`` (values, groups and aggregates) and
/// ``ObjectContext/count(for:)``.
///
/// ```swift
/// var request = FetchRequest(entityName: "Ticker")
/// request.predicate = try ObjectPredicate(format: "sector.name == %@ AND price > %@", "Tech", 10)
/// request.sortDescriptors = [SortKey("symbol")]
/// request.fetchLimit = 50
/// let tickers = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable {
    /// The entity fetched.
    public var entityName: String
    /// The filter (`nil`: every object).
    public var predicate: ObjectPredicate?
    /// The order; ties (and no descriptors) order by object ID.
    public var sortDescriptors: [SortKey] = []
    /// The largest number of results (0: no limit).
    public var fetchLimit = 0
    /// How many leading results are skipped.
    public var fetchOffset = 0
    /// Objects are loaded in batches of this size as they are used (0: all at once).
    public var fetchBatchSize = 0
    /// Whether the context's unsaved inserts, updates and deletes are honoured (default `true`).
    public var includesPendingChanges = true
    /// Whether objects of sub-entities are included (default `true`).
    public var includesSubentities = true
    /// Relationship key paths whose destinations are loaded in one batch with the results.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether results stay faults until used (default `true`, as in Core Data); `false` loads
    /// them in one batch.
    public var returnsObjectsAsFaults = true
    /// The columns of ``ObjectContext/fetchDictionaries(_:)``: key paths and aggregates (empty:
    /// every attribute).
    public var propertiesToFetch: [FetchedProperty] = []
    /// The key paths (attributes, to-one key paths) whose values form the groups of
    /// ``ObjectContext/fetchDictionaries(_:)``: one result per group, its aggregates over the
    /// group's objects. Every key in ``propertiesToFetch`` must be one of them.
    public var propertiesToGroupBy: [String] = []
    /// Which groups are kept, over the result dictionaries' keys: `count() > 2`, or an
    /// aggregate's name in backticks:
    /// ```
    /// `sum(volume)` > 1000
    /// ```
    public var havingPredicate: ObjectPredicate?
    /// Whether equal result dictionaries are returned once.
    public var returnsDistinctResults = false

    /// Creates a request for `entityName`.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [SortKey] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
