/// One group of an ``AggregateResultsController``: its group-by key values and its result
/// columns, as ``ObjectContext/fetchDictionaries(_:)`` gives them.
public struct AggregateGroup: Sendable, Hashable {
    /// The values of the request's ``FetchRequest/propertiesToGroupBy``, in order (empty
    /// without group-by keys: the one group of every object).
    public let key: [Value]
    /// The result columns by name (``FetchedProperty/name``): `sector.name`, `count()`, `sum(volume)`.
    public let values: [String: Value]

    /// Creates a group.
    public init(key: [Value], values: [String: Value]) {
        self.key = key
        self.values = values
    }

    /// Column `name`'s value (``Value/null`` for a name that is not a column).
    public subscript(_ name: String) -> Value { values[name] ?? .null }
}

/// What one change event cost an ``AggregateResultsController``: how many objects it
/// considered, how many groups changed, whether it asked the store, and how long it took.
public struct AggregateUpdateReport: Sendable, Equatable {
    /// Objects of the request's entity the event concerned.
    public var objects = 0
    /// Groups whose values changed, appeared or left.
    public var groups = 0
    /// Store queries made (0 when the event's own values decided everything; 1 when merged
    /// objects had to be read, restricted to their IDs).
    public var storeQueries = 0
    /// Whether the groups were computed again from the store (a change to a related object a
    /// group key reads through, a reset, or a change made outside Quarry).
    public var recomputed = false
    /// Wall-clock seconds from the event to the last delegate call.
    public var seconds = 0.0
}

/// Receives an ``AggregateResultsController``'s changes, in the terms of
/// ``FetchedResultsControllerDelegate`` with one flat list of groups: for one change event,
/// ``controllerWillChangeContent(_:)``, then every group change — deletes (old indexes,
/// descending), inserts (new indexes, ascending), moves (by new index), updates (old indexes)
/// — then ``controllerDidChangeContent(_:)``. Applying the deletes and then the inserts to the
/// old list gives the new one; a move implies an update.
///
/// Every method has an empty default implementation.
public protocol AggregateResultsControllerDelegate: AnyObject {
    /// Before the changes of one event.
    func controllerWillChangeContent(_ controller: AggregateResultsController)
    /// Group `group` was inserted (at `newIndex`), deleted (from `index`), moved (from `index`
    /// to `newIndex`) or updated (at `index`).
    func controller(_ controller: AggregateResultsController, didChange group: AggregateGroup, at index: Int?,
                    for type: ResultsChangeType, newIndex: Int?)
    /// After the changes of one event.
    func controllerDidChangeContent(_ controller: AggregateResultsController)
    /// The context was reset: reload every group (the controller has fetched again).
    func controllerDidResetContent(_ controller: AggregateResultsController)
    /// A change could not be applied: the groups lag behind the context until a later change
    /// or ``AggregateResultsController/performFetch()``.
    func controller(_ controller: AggregateResultsController, didFailWith error: FetchedResultsError)
}

extension AggregateResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: AggregateResultsController) {}
    public func controller(_ controller: AggregateResultsController, didChange group: AggregateGroup, at index: Int?,
                           for type: ResultsChangeType, newIndex: Int?) {}
    public func controllerDidChangeContent(_ controller: AggregateResultsController) {}
    public func controllerDidResetContent(_ controller: AggregateResultsController) {}
    public func controller(_ controller: AggregateResultsController, didFailWith error: FetchedResultsError) {}
}
