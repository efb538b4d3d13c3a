import Quarry

/// A to-many relationship of one object, shown as a table of its destination's objects.
struct TableScope: Hashable, Sendable {
    /// The object whose relationship is shown.
    var owner: ObjectID
    /// The to-one inverse on the destination that points back at the owner (`ticker`).
    var inverse: String
    /// What the title bar calls it: `quotes of Ticker AAPL`.
    var title: String
}

/// What the table shows: an entity, its order, its sections and its filter.
struct TableQuery: Hashable, Sendable {
    /// The entity browsed.
    var entityName: String
    /// The order; the first key is the section key when the table is sectioned. Empty: by
    /// object ID (an entity with nothing else to sort by).
    var sort: [SortKey]
    /// The key path sections are made of (must be the first sort key), if any.
    var sectionKey: String?
    /// The filter as the user typed it.
    var filter: String?
    /// The one object whose to-many relationship the table shows, if it shows one: only
    /// objects whose inverse to-one points at it are rows (ANDed with the filter).
    var scope: TableScope? = nil

    /// `sort` with the section key put first, as the controller requires.
    var effectiveSort: [SortKey] {
        guard let sectionKey else { return sort }
        if sort.first?.keyPath == sectionKey { return sort }
        return [SortKey(sectionKey)] + sort.filter { $0.keyPath != sectionKey }
    }

    /// The sort keys the user chose (the section key left out): what the title bar and search use.
    var userSort: [SortKey] {
        effectiveSort.filter { $0.keyPath != sectionKey }
    }

    /// The predicate for `filter`, parsed.
    /// - Throws: ``QueryError`` with the column at fault.
    func predicate() throws -> ObjectPredicate? {
        let scoped = try scope.map { try ObjectPredicate(format: "%K == %@", .value(.string($0.inverse)), .value(.integer($0.owner.primaryKey))) }
        guard let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty else { return scoped }
        let filtered = try ObjectPredicate(format: filter)
        return scoped.map { .and([$0, filtered]) } ?? filtered
    }

    /// The sort as the title bar shows it: `sector.name ▲, symbol ▲`.
    var sortDescription: String { Self.describe(effectiveSort) }

    /// ``userSort`` as the status line shows it.
    var userSortDescription: String { Self.describe(userSort) }

    /// `keys` as `a ▲, b ▼`; no key at all is object-ID order (ties always are).
    private static func describe(_ keys: [SortKey]) -> String {
        keys.isEmpty ? "object ID" : keys.map { "\($0.keyPath) \($0.ascending ? "▲" : "▼")" }.joined(separator: ", ")
    }
}
