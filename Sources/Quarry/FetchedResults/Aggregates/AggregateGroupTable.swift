/// The groups of a live aggregate fetch and what each object contributes to them: the state
/// an ``AggregateResultsController`` updates from change events, with no store query.
///
/// Each object that matches the request has one row: its group and the values of the key
/// paths its group's aggregates read (``DictionaryFetch/keyPaths`` after the group keys), so
/// that when it changes or leaves, exactly what it added is taken out again. Groups keep their
/// index (a group ID) for the table's life, even when emptied, so a group that empties and
/// fills again is the same group.
struct AggregateGroupTable {
    /// The fetch kept live: columns, key paths and where each column reads.
    let fetch: DictionaryFetch
    /// How many values each object row stores (the key paths after the group keys).
    private let storedCount: Int
    /// Per column: a fresh aggregate (`nil` for a group-key column).
    private let blank: [LiveAggregate?]
    /// Whether some column is a minimum or maximum (which a leaving value can make stale).
    private let hasExtremes: Bool

    /// Each group's key values (the group-by key paths' values), by group ID.
    private(set) var groupKeys: [[Value]] = []
    private var groupIDs: [[Value]: Int32] = [:]
    /// Each group's aggregates, by group ID then column.
    private var aggregates: [[LiveAggregate?]] = []
    /// How many objects each group holds, by group ID.
    private(set) var members: [Int] = []

    private var rowOfObject = ObjectRowMap()
    /// Each row's group (-1: a free row).
    private var groupOfRow: [Int32] = []
    /// The rows' stored values, `storedCount` per row.
    private var storedValues: [Value] = []
    private var freeRows: [Int32] = []

    init(_ fetch: DictionaryFetch) {
        self.fetch = fetch
        storedCount = fetch.keyPaths.count - fetch.groupKeyCount
        blank = zip(fetch.properties, fetch.arithmetic).map { property, arithmetic in
            if case .aggregate(let function, _) = property { return LiveAggregate(function, arithmetic: arithmetic) }
            return nil
        }
        hasExtremes = fetch.properties.contains {
            if case .aggregate(let f, _) = $0 { return f == .min || f == .max }
            return false
        }
        // With no group-by key, the one group of every object exists even when empty (as SQL
        // gives one row for an aggregate over no rows).
        if fetch.groupKeyCount == 0 { _ = group(for: []) }
    }

    /// How many objects the table holds.
    var objectCount: Int { rowOfObject.count }

    /// Whether `id` contributes to a group.
    func contains(_ id: ObjectID) -> Bool { rowOfObject[id] != nil }

    /// The key-path values `id` contributed (group keys first, as ``DictionaryFetch/keyPaths``),
    /// or `nil` when it contributes nothing.
    func keyValues(of id: ObjectID) -> [Value]? {
        rowOfObject[id].map(keyValues(ofRow:))
    }

    /// The row of `id`, if it contributes: a handle for ``keyValues(ofRow:)`` and
    /// ``update(row:keyValues:)`` that saves looking the object up again, valid until the
    /// object is removed.
    func row(of id: ObjectID) -> Int32? { rowOfObject[id] }

    /// The key-path values the object at `row` contributes.
    func keyValues(ofRow row: Int32) -> [Value] {
        let start = Int(row) * storedCount
        return groupKeys[Int(groupOfRow[Int(row)])] + storedValues[start..<(start + storedCount)]
    }

    /// Makes `id` contribute `keyValues` (one per ``DictionaryFetch/keyPaths``), taking out
    /// what it contributed before; returns the groups changed (its old one, if any, and its
    /// new one), or `nil` when it already contributed exactly these values.
    ///
    /// An object already in the table keeps its row (one lookup of the object, no row freed
    /// and taken again), and stays in its group without a lookup of the group's key when its
    /// group-key values are unchanged.
    mutating func upsert(_ id: ObjectID, keyValues: [Value]) -> (old: Int32?, new: Int32)? {
        assert(keyValues.count == fetch.keyPaths.count, "one value per key path")
        let keyCount = fetch.groupKeyCount
        guard let row = rowOfObject[id] else {
            let g = group(for: keyValues, count: keyCount)
            let row: Int32
            if let free = freeRows.popLast() {
                row = free
                groupOfRow[Int(row)] = g
                let start = Int(row) * storedCount
                for s in 0..<storedCount { storedValues[start + s] = keyValues[keyCount + s] }
            } else {
                row = Int32(groupOfRow.count)
                groupOfRow.append(g)
                storedValues.append(contentsOf: keyValues[keyCount...])
            }
            rowOfObject.set(row, for: id)
            add(row: row, to: g, keyValues: keyValues)
            return (nil, g)
        }
        return update(row: row, keyValues: keyValues)
    }

    /// Makes the object at `row` (from ``row(of:)``) contribute `keyValues` instead; returns
    /// the groups changed (old, new), or `nil` when it already contributed exactly these.
    mutating func update(row: Int32, keyValues: [Value]) -> (old: Int32?, new: Int32)? {
        assert(groupOfRow[Int(row)] >= 0, "a row in use")
        let keyCount = fetch.groupKeyCount
        let old = groupOfRow[Int(row)]
        let start = Int(row) * storedCount
        let sameKey = groupKeys[Int(old)].elementsEqual(keyValues[..<keyCount])
        if sameKey, storedValues[start..<(start + storedCount)].elementsEqual(keyValues[keyCount...]) { return nil }
        take(row: row, from: old)
        let g = sameKey ? old : group(for: keyValues, count: keyCount)
        groupOfRow[Int(row)] = g
        for s in 0..<storedCount { storedValues[start + s] = keyValues[keyCount + s] }
        add(row: row, to: g, keyValues: keyValues)
        return (old, g)
    }

    /// Adds what `row` (now holding `keyValues`) contributes to group `g`.
    private mutating func add(row: Int32, to g: Int32, keyValues: [Value]) {
        members[Int(g)] += 1
        for p in blank.indices where blank[p] != nil {
            if let slot = fetch.slots[p] {
                aggregates[Int(g)][p]!.add(keyValues[slot])
            } else {
                aggregates[Int(g)][p]!.addObject()
            }
        }
    }

    /// Takes what `row` contributes out of its group `g` (the row keeps its values).
    private mutating func take(row: Int32, from g: Int32) {
        members[Int(g)] -= 1
        for p in blank.indices where blank[p] != nil {
            if let slot = fetch.slots[p] {
                aggregates[Int(g)][p]!.remove(value(ofSlot: slot, row: row, group: g))
            } else {
                aggregates[Int(g)][p]!.removeObject()
            }
        }
    }

    /// Takes out what `id` contributed; returns its group, or `nil` when it contributed nothing.
    @discardableResult
    mutating func remove(_ id: ObjectID) -> Int32? {
        guard let row = rowOfObject.removeValue(forKey: id) else { return nil }
        let g = groupOfRow[Int(row)]
        take(row: row, from: g)
        groupOfRow[Int(row)] = -1
        let start = Int(row) * storedCount
        for s in 0..<storedCount { storedValues[start + s] = .null }
        freeRows.append(row)
        return g
    }

    /// Recomputes the minimums and maximums whose value left their group, from the values
    /// the group's rows still hold: one pass over the rows, for every stale group at once.
    mutating func settle(_ groups: some Collection<Int32>) {
        guard hasExtremes else { return }
        var stale: [Int32: [Int]] = [:]   // group → its stale columns
        for g in groups {
            let columns = blank.indices.filter { aggregates[Int(g)][$0]?.needsRecompute == true }
            if !columns.isEmpty { stale[g] = columns }
        }
        guard !stale.isEmpty else { return }
        var values: [Int32: [[Value]]] = stale.mapValues { $0.map { _ in [] } }
        for row in groupOfRow.indices {
            let g = groupOfRow[row]
            guard g >= 0, let columns = stale[g] else { continue }
            for (c, p) in columns.enumerated() {
                values[g]![c].append(value(ofSlot: fetch.slots[p]!, row: Int32(row), group: g))
            }
        }
        for (g, columns) in stale {
            for (c, p) in columns.enumerated() { aggregates[Int(g)][p]!.recompute(from: values[g]![c]) }
        }
    }

    /// Whether group `g` is a result: it holds an object, or it is the one group of a fetch
    /// without group-by keys.
    func isPresent(_ g: Int32) -> Bool { members[Int(g)] > 0 || fetch.groupKeyCount == 0 }

    /// Group `g`'s result dictionary, as ``ObjectContext/fetchDictionaries(_:)`` gives it.
    /// - Throws: ``QueryError`` for an integer sum beyond 64 bits.
    func result(of g: Int32) throws -> [String: Value] {
        var row: [String: Value] = [:]
        for (p, property) in fetch.properties.enumerated() {
            if let aggregate = aggregates[Int(g)][p] {
                row[property.name] = try aggregate.result(name: property.name)
            } else {
                row[property.name] = groupKeys[Int(g)][fetch.slots[p]!]
            }
        }
        return row
    }

    /// The ID of the group whose key is the first `count` of `keyValues`, made (empty) when new.
    private mutating func group(for keyValues: [Value], count: Int) -> Int32 {
        group(for: count == keyValues.count ? keyValues : Array(keyValues[..<count]))
    }

    /// The ID of the group with key `key`, made (empty) when new.
    private mutating func group(for key: [Value]) -> Int32 {
        if let g = groupIDs[key] { return g }
        let g = Int32(groupKeys.count)
        groupIDs[key] = g
        groupKeys.append(key)
        aggregates.append(blank)
        members.append(0)
        return g
    }

    /// The value of key path `slot` for `row` (of group `g`).
    private func value(ofSlot slot: Int, row: Int32, group g: Int32) -> Value {
        slot < fetch.groupKeyCount ? groupKeys[Int(g)][slot] : storedValues[Int(row) * storedCount + slot - fetch.groupKeyCount]
    }
}
