/// A dictionary fetch (``ObjectContext/fetchDictionaries(_:)``) checked against the model and
/// computed from the store's keyed rows (``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``):
/// values, groups, aggregates, `having`, distinct results, order and window — without one
/// managed object, the same way on every back end.
struct DictionaryFetch {
    /// The columns, in order: each a key path's value or an aggregate.
    let properties: [FetchedProperty]
    /// The key paths read per row: the group keys first, then whatever else a column reads.
    let keyPaths: [String]
    let query: StoreQuery
    let request: FetchRequest
    /// Whether rows are grouped (an aggregate, or group-by keys): one result per group.
    let groups: Bool
    /// Per property: the index of its key path in ``keyPaths`` (`nil`: `count()`).
    let slots: [Int?]
    /// Per property: how a sum or mean adds (aggregates only).
    let arithmetic: [AggregateAccumulator.Arithmetic]
    /// The `having` predicate over result columns, if any.
    let having: ResultRowFilter?
    /// How many of ``keyPaths`` are group-by keys (they come first).
    var groupKeyCount: Int { request.propertiesToGroupBy.count }
    /// Group-by keys that are one to-one step and an attribute of a destination without
    /// sub-entities (`sector.name`), by their index in ``keyPaths``, when no aggregate reads
    /// the same key path: the rows are grouped by the destination's key (the store reads them
    /// without a join: `GROUP BY sector` over an index, not a join of every row), and each
    /// group is named after its destination's attribute afterwards.
    let groupKeyHops: [Int: ToOneHop]

    /// - Throws: ``QueryError`` naming the key, aggregate or column at fault: an unknown key, a
    ///   key path through a to-many, a sum of something that is not a number, a column that is
    ///   neither grouped nor aggregated, a `having` on something that is not a column.
    init(_ request: FetchRequest, model: ManagedObjectModel) throws {
        let entity = try model.requireEntity(request.entityName)
        self.request = request
        let properties = request.propertiesToFetch.isEmpty
            ? entity.attributes.filter { !$0.isTransient }.map { FetchedProperty.key($0.name) } : request.propertiesToFetch
        self.properties = properties
        let aggregates = properties.contains { if case .aggregate = $0 { return true } else { return false } }
        groups = aggregates || !request.propertiesToGroupBy.isEmpty
        var keyPaths: [String] = []
        /// The index of `path` in `keyPaths` (added if new) and the type of the attribute it reads.
        func slot(_ path: String, role: String) throws -> (index: Int, type: AttributeType) {
            let plan = try KeyPathPlan(path, entity: entity, model: model)
            guard !plan.crossesToMany else {
                throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: plan.endsWithCollectionOperator
                    ? "\(role) ends in a collection operator (@count, @sum, …), which a dictionary fetch does not read: filter with it in the predicate"
                    : "\(role) goes through a to-many relationship (one value per object is needed)")
            }
            guard case .attribute(let a) = plan.terminal else {
                throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "\(role) must end at an attribute")
            }
            let type = plan.finalEntity.attributes[a].type
            if let known = keyPaths.firstIndex(of: path) { return (known, type) }
            keyPaths.append(path)
            return (keyPaths.count - 1, type)
        }
        for path in request.propertiesToGroupBy { _ = try slot(path, role: "a group-by key") }
        var slots: [Int?] = []
        var arithmetic: [AggregateAccumulator.Arithmetic] = []
        for property in properties {
            switch property {
            case .key(let path):
                if groups, !request.propertiesToGroupBy.contains(path) {
                    throw QueryError.invalidOperand("'\(path)' is neither grouped (propertiesToGroupBy) nor aggregated: one value per group is needed")
                }
                slots.append(try slot(path, role: "'\(path)'").index)
                arithmetic.append(.none)
            case .aggregate(let function, let path):
                guard let path else { slots.append(nil); arithmetic.append(.none); continue }
                let (index, type) = try slot(path, role: "'\(property.name)'")
                slots.append(index)
                switch function {
                case .sum, .avg:
                    switch type {
                    case .integer16, .integer32, .integer64: arithmetic.append(.integer)
                    case .double, .float: arithmetic.append(.double)
                    case .decimal: arithmetic.append(.decimal)
                    default: throw QueryError.invalidOperand("'\(property.name)': \(path) is \(type.rawValue), which cannot be summed")
                    }
                case .min, .max:
                    guard type != .binary, type != .transformable, type != .undefined else {
                        throw QueryError.invalidOperand("'\(property.name)': \(path) is \(type.rawValue), which has no order")
                    }
                    arithmetic.append(.none)
                case .count, .countDistinct:
                    arithmetic.append(.none)
                }
            }
        }
        var hops: [Int: ToOneHop] = [:]
        for (index, path) in request.propertiesToGroupBy.enumerated() {
            guard let hop = ToOneHop(try KeyPathPlan(path, entity: entity, model: model)),
                  hop.destination.selfAndDescendantIndices == [hop.destination.index],
                  !zip(properties, slots).contains(where: { property, slot in
                      if case .aggregate = property { return slot == index } else { return false }
                  }) else { continue }
            hops[index] = hop
        }
        groupKeyHops = hops
        self.keyPaths = keyPaths
        self.slots = slots
        self.arithmetic = arithmetic
        having = try request.havingPredicate.map { try ResultRowFilter($0, columns: Set(properties.map(\.name))) }
        if request.havingPredicate != nil && !groups {
            throw QueryError.invalidOperand("having: a having predicate needs groups (propertiesToGroupBy or an aggregate)")
        }
        // Ungrouped rows come in the request's order and window; groups are ordered afterwards.
        query = StoreQuery(entity: entity, includesSubentities: request.includesSubentities, predicate: request.predicate,
                           sortDescriptors: groups ? [] : request.sortDescriptors,
                           limit: groups || request.returnsDistinctResults ? 0 : request.fetchLimit,
                           offset: groups || request.returnsDistinctResults ? 0 : request.fetchOffset)
    }

    /// Reads the store's rows and returns the result dictionaries.
    /// - Throws: the store's error, or ``QueryError`` for an integer sum that leaves 64 bits.
    func run(on store: PersistentStore) throws -> [[String: Value]] {
        var rows: [[String: Value]]
        if groups {
            var (keys, accumulators) = try groupedThroughKeys(on: store) ?? accumulate(keyPaths, on: store)
            // An aggregate over no object at all is still one result (count 0), as in SQL.
            if keys.isEmpty && groupKeyCount == 0 {
                keys.append([])
                accumulators.append(blankAccumulators)
            }
            rows = zip(keys, accumulators).map { key, group in
                var row: [String: Value] = [:]
                for (p, property) in properties.enumerated() {
                    switch property {
                    case .key(let path): row[property.name] = key[request.propertiesToGroupBy.firstIndex(of: path)!]
                    case .aggregate: row[property.name] = group[p].result
                    }
                }
                return row
            }
            if let having { rows = rows.filter(having.evaluate) }
        } else {
            rows = []
            try store.forEachKeyedRow(for: query, keyPaths: keyPaths) { row in
                var result: [String: Value] = [:]
                for (p, property) in properties.enumerated() { result[property.name] = row.value(ofKey: slots[p]!) }
                rows.append(result)
            }
        }
        if request.returnsDistinctResults {
            var seen = Set<[String: Value]>()
            rows = rows.filter { seen.insert($0).inserted }
        }
        if groups || request.returnsDistinctResults {
            rows = ordered(rows)
            let start = min(max(request.fetchOffset, 0), rows.count)
            let end = request.fetchLimit > 0 ? min(rows.count, start + request.fetchLimit) : rows.count
            rows = Array(rows[start..<end])
        }
        return rows
    }

    /// A fresh accumulator per column (a `count` stands in for a key column).
    private var blankAccumulators: [AggregateAccumulator] {
        zip(properties, arithmetic).map { property, arithmetic -> AggregateAccumulator in
            if case .aggregate(let function, _) = property { return AggregateAccumulator(function, arithmetic: arithmetic) }
            return AggregateAccumulator(.count, arithmetic: .none)
        }
    }

    /// Reads `paths` (``keyPaths``, or them with some group keys read as a relationship's key)
    /// from the store's rows and feeds each group's aggregates: the groups' keys and
    /// accumulators, in the order the groups were first met.
    private func accumulate(_ paths: [String], on store: PersistentStore) throws -> (keys: [[Value]], accumulators: [[AggregateAccumulator]]) {
        var index: [[Value]: Int] = [:]
        var keys: [[Value]] = []
        var accumulators: [[AggregateAccumulator]] = []
        let groupCount = groupKeyCount
        let blank = blankAccumulators
        try store.forEachKeyedRow(for: query, keyPaths: paths) { row in
            let key = (0..<groupCount).map { row.value(ofKey: $0) }
            let g: Int
            if let known = index[key] {
                g = known
            } else {
                g = keys.count
                index[key] = g
                keys.append(key)
                accumulators.append(blank)
            }
            for (p, property) in properties.enumerated() {
                guard case .aggregate = property else { continue }
                if let slot = slots[p] {
                    try accumulators[g][p].add(row.value(ofKey: slot), name: property.name)
                } else {
                    accumulators[g][p].addObject()
                }
            }
        }
        return (keys, accumulators)
    }

    /// The groups read with each of ``groupKeyHops`` grouped by the destination's key, then
    /// named after the destinations' attribute (one query restricted to the destinations met);
    /// `nil` when there is no such key, or when two destinations share a name (their groups
    /// would merge: the rows are read again through the key paths then). Each group's values
    /// are fed in the same row order either way, so sums come out alike.
    private func groupedThroughKeys(on store: PersistentStore) throws -> (keys: [[Value]], accumulators: [[AggregateAccumulator]])? {
        guard !groupKeyHops.isEmpty else { return nil }
        var paths = keyPaths
        for (index, hop) in groupKeyHops { paths[index] = hop.relationshipName }
        let (read, accumulators) = try accumulate(paths, on: store)
        var keys = read
        for (index, hop) in groupKeyHops {
            // The destination has no sub-entities: its key and entity make its object ID.
            func destination(_ key: Value) -> ObjectID? {
                if case .integer(let pk) = key { ObjectID(entityIndex: hop.destination.index, primaryKey: pk) } else { nil }
            }
            let destinations = Set(keys.compactMap { destination($0[index]) })
            let names = destinations.isEmpty ? [:] : try hop.values(of: destinations, in: store)
            for g in keys.indices {
                // No destination, or one the store does not hold: nil, as the join gives.
                keys[g][index] = destination(keys[g][index]).flatMap { names[$0] } ?? .null
            }
        }
        guard Set(keys).count == keys.count else { return nil }
        return (keys, accumulators)
    }

    /// Groups and distinct rows in the request's order (its sort keys name result columns),
    /// then by every column in order, ascending: the same order on every back end.
    private func ordered(_ rows: [[String: Value]]) -> [[String: Value]] {
        rows.sorted { order($0, $1) < 0 }
    }

    /// Where result `a` goes relative to `b` (negative: before; 0: in no order): by the
    /// request's sort keys (which name result columns), then by every column, ascending.
    func order(_ a: [String: Value], _ b: [String: Value]) -> Int {
        for key in request.sortDescriptors {
            let order = ValueOrdering.compare(a[key.keyPath] ?? .null, b[key.keyPath] ?? .null)
            if order != 0 { return key.ascending ? order : -order }
        }
        for property in properties {
            let order = ValueOrdering.compare(a[property.name] ?? .null, b[property.name] ?? .null)
            if order != 0 { return order }
        }
        return 0
    }
}
