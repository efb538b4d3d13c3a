extension ObjectContext {
    /// The results of `request` as dictionaries (Core Data's dictionary result type), keyed by
    /// each ``FetchRequest/propertiesToFetch`` column's name: key-path values, or, with
    /// ``FetchRequest/propertiesToGroupBy`` or an aggregate, one dictionary per group with its
    /// aggregates (`count()`, `sum(volume)`, …), filtered by ``FetchRequest/havingPredicate``,
    /// once per distinct dictionary with ``FetchRequest/returnsDistinctResults``.
    ///
    /// Computed from the store's rows without making one managed object, the same way on every
    /// back end. Groups and aggregates read what is saved (as in Core Data, whose grouped
    /// fetches cannot include pending changes); plain rows include this context's unsaved
    /// changes unless ``FetchRequest/includesPendingChanges`` is `false` (those are read from
    /// its objects). Groups are ordered by the request's sort keys (which name result
    /// columns), then by every column in order.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "active == YES"))
    /// request.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, count(), sum(volume)")
    /// request.propertiesToGroupBy = ["sector.name"]
    /// request.havingPredicate = try ObjectPredicate(format: "`count()` > 10")
    /// for row in try context.fetchDictionaries(request) { print(row["sector.name"]!, row["sum(volume)"]!) }
    /// ```
    /// - Throws: ``QueryError`` naming the key, aggregate or column at fault (an unknown key, a
    ///   key path through a to-many, a sum of text, a column neither grouped nor aggregated, an
    ///   integer sum beyond 64 bits), or the store's error.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Value]] {
        checkQueue()
        let fetch = try DictionaryFetch(request, model: model)
        var root = self
        while let parent = root.parent { root = parent }
        if fetch.groups || ((!request.includesPendingChanges || !hasChanges) && parent == nil) {
            return try fetch.run(on: root.coordinator.store)
        }
        // Unsaved changes to honour: the values of this context's objects.
        let plans = try fetch.properties.map { try KeyPathPlan($0.name, entity: fetch.query.entity, model: model) }
        let objects = try fetchObjectIDs(request).map(object(with:))
        try faultIn(objects)
        var rows = try objects.map { o in
            var row: [String: Value] = [:]
            for (property, plan) in zip(fetch.properties, plans) { row[property.name] = try plan.values(of: ObjectSubject(object: o)).first ?? .null }
            return row
        }
        if request.returnsDistinctResults {
            var seen = Set<[String: Value]>()
            rows = rows.filter { seen.insert($0).inserted }
        }
        return rows
    }

    /// Dictionaries of the key paths `properties` (every attribute when empty) for each object
    /// `request` selects: ``fetchDictionaries(_:)`` with `properties` as its columns.
    public func fetchDictionaries(_ request: FetchRequest, properties: [String]) throws -> [[String: Value]] {
        var request = request
        if !properties.isEmpty { request.propertiesToFetch = properties.map(FetchedProperty.key) }
        return try fetchDictionaries(request)
    }
}
