/// What to fetch: an entity, a filter, an order, a window, and the form of the results.
///
/// ```swift
/// var request = FetchRequest(entityName: "Ticker")
/// request.predicate = try ObjectPredicate(format: "sector.name == %@ AND price > %@", "Tech", 10)
/// request.sortDescriptors = [SortKey("symbol")]
/// request.fetchLimit = 50
/// let tickers = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable {
    /// The form of a fetch's results.
    public enum ResultType: Sendable, Hashable {
        /// Managed objects (the default).
        case objects
        /// Object IDs only; nothing is loaded.
        case objectIDs
        /// Dictionaries of the chosen properties (all attributes when empty).
        case dictionaries([String])
        /// The count only.
        case count
    }

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
    /// The form of the results.
    public var resultType = ResultType.objects
    /// Whether the context's unsaved inserts, updates and deletes are honoured (default `true`).
    public var includesPendingChanges = true
    /// Whether objects of sub-entities are included (default `true`).
    public var includesSubentities = true
    /// Relationship key paths whose destinations are loaded in one batch with the results.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether results stay faults until used (default `true`, as in Core Data); `false` loads
    /// them in one batch.
    public var returnsObjectsAsFaults = true

    /// Creates a request for `entityName`.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [SortKey] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}
