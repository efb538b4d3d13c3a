import Quarry

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
        guard let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try ObjectPredicate(format: filter)
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
